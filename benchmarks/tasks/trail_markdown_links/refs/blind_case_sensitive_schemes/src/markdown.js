// The Markdown we support in issue bodies and comments: paragraphs, headings, emphasis,
// inline code, fenced code blocks, lists, block quotes, links and autolinks.
//
// The text is HTML-escaped before any markup is added, so what a user types can only become
// the markup below, never raw HTML.

import { escapeHtml } from "./html.js";

/** An <a> for [text](url); text is already rendered, url already escaped. */
function renderLink(text, url) {
  return `<a href="${url}" rel="nofollow noopener">${text}</a>`;
}

// Links may only go to the web, to a mail address or within our site; anything else
// (javascript:, data:, vbscript:, ftp:, ...) is shown as its text.
const ALLOWED_URL = /^(?:https?:\/\/|mailto:|[/#?])/;

export function isAllowedUrl(url) {
  return ALLOWED_URL.test(url);
}

// Inline markup on escaped text. Code spans are cut out first so nothing inside them is
// touched, then put back at the end.
export function renderInline(source) {
  const codes = [];
  let out = escapeHtml(source).replace(/`([^`\n]+)`/g, (_, code) => {
    codes.push(`<code>${code}</code>`);
    return `\u0000${codes.length - 1}\u0000`;
  });
  out = out.replace(/\[([^\]\n]+)\]\(([^)\s]+)\)/g, (_, label, url) => (isAllowedUrl(url) ? renderLink(label, url) : label));
  out = out.replace(/&lt;(https?:\/\/[^\s&]+)&gt;/g, (_, url) => renderLink(url, url));
  out = out.replace(/\*\*([^*\n]+)\*\*/g, "<strong>$1</strong>");
  out = out.replace(/(^|[^*])\*([^*\n]+)\*/g, "$1<em>$2</em>");
  out = out.replace(/(^|[^\w])_([^_\n]+)_(?=$|[^\w])/g, "$1<em>$2</em>");
  out = out.replace(/~~([^~\n]+)~~/g, "<del>$1</del>");
  out = out.replace(/ {2,}\n/g, "<br>\n");
  return out.replace(/\u0000(\d+)\u0000/g, (_, i) => codes[Number(i)]);
}

const HEADING = /^(#{1,3})\s+(.*?)\s*#*$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,9}[.)]\s+(.*)$/;
const QUOTE = /^\s*&gt;\s?(.*)$|^\s*>\s?(.*)$/;
const FENCE = /^\s*```\s*([\w+-]*)\s*$/;

/**
 * Render Markdown to HTML.
 * @param {string} source
 * @returns {string}
 */
export function renderMarkdown(source) {
  const lines = String(source ?? "").replace(/\r\n?/g, "\n").split("\n");
  const blocks = [];
  let paragraph = [];
  let list = null; // { tag, items }
  let quote = [];

  const flushParagraph = () => {
    if (paragraph.length) blocks.push(`<p>${renderInline(paragraph.join("\n"))}</p>`);
    paragraph = [];
  };
  const flushList = () => {
    if (list) blocks.push(`<${list.tag}>\n${list.items.map((i) => `<li>${renderInline(i)}</li>`).join("\n")}\n</${list.tag}>`);
    list = null;
  };
  const flushQuote = () => {
    if (quote.length) blocks.push(`<blockquote>${renderMarkdown(quote.join("\n"))}</blockquote>`);
    quote = [];
  };
  const flushAll = () => {
    flushParagraph();
    flushList();
    flushQuote();
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = FENCE.exec(line);
    if (fence) {
      flushAll();
      const code = [];
      i++;
      while (i < lines.length && !FENCE.test(lines[i])) code.push(lines[i++]);
      const lang = fence[1] ? ` class="language-${escapeHtml(fence[1])}"` : "";
      blocks.push(`<pre><code${lang}>${escapeHtml(code.join("\n"))}</code></pre>`);
      continue;
    }
    if (line.trim() === "") {
      flushAll();
      continue;
    }
    const q = QUOTE.exec(line);
    if (q) {
      flushParagraph();
      flushList();
      quote.push(q[1] ?? q[2] ?? "");
      continue;
    }
    flushQuote();
    const heading = HEADING.exec(line);
    if (heading) {
      flushParagraph();
      flushList();
      const level = heading[1].length + 2; // # is <h3>: the page already has <h1> and <h2>
      blocks.push(`<h${level}>${renderInline(heading[2])}</h${level}>`);
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    if (bullet || numbered) {
      flushParagraph();
      const tag = bullet ? "ul" : "ol";
      if (list && list.tag !== tag) flushList();
      if (!list) list = { tag, items: [] };
      list.items.push((bullet ?? numbered)[1]);
      continue;
    }
    if (list && /^\s{2,}\S/.test(line)) {
      list.items[list.items.length - 1] += `\n${line.trim()}`;
      continue;
    }
    flushList();
    paragraph.push(line);
  }
  flushAll();
  return blocks.join("\n");
}

/** The first line of a body as plain text, for previews and notifications. */
export function summary(source, max = 120) {
  const first = String(source ?? "").split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
  const plain = first.replace(/[#*_`>~]/g, "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").trim();
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
}
