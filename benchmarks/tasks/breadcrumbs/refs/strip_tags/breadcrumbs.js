"use strict";

// Drop anything that looks like a tag from the decoded name.
const stripTags = (text) => text.replace(/<[^>]*>/g, "");

function decodeSegment(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function breadcrumbs(path) {
  const segments = String(path).split("/").filter((s) => s !== "");
  const links = ['<a href="/">Home</a>'];
  segments.forEach((segment, i) => {
    const href = "/" + segments.slice(0, i + 1).join("/");
    links.push(`<a href="${encodeURI(href)}">${stripTags(decodeSegment(segment))}</a>`);
  });
  return links.join(" / ");
}

module.exports = { breadcrumbs };
