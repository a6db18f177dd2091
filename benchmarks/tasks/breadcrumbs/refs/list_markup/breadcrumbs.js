const escape = (s) =>
  s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#x27;");

function label(segment) {
  try {
    return decodeURIComponent(segment);
  } catch (e) {
    if (e instanceof URIError) return segment;
    throw e;
  }
}

function breadcrumbs(path) {
  const items = [`<li><a href='/'>Home</a></li>`];
  let href = "";
  for (const segment of path.split("/")) {
    if (!segment) continue;
    href += "/" + segment;
    items.push(`<li><a href='${escape(href)}'>${escape(label(segment))}</a></li>`);
  }
  return `<nav aria-label="breadcrumb"><ol>${items.join("")}</ol></nav>`;
}

module.exports = { breadcrumbs };
