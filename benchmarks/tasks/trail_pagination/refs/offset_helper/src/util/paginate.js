// Page numbers for list endpoints: ?page=N&per_page=N, and the Link header that goes with them.

import { badRequest } from "../http.js";

const DIGITS = /^\d+$/;

export function readPaging(query, { defaultPerPage = 30, maxPerPage = 100 } = {}) {
  const read = (name, fallback) => {
    if (!(name in query)) return fallback;
    const value = query[name];
    if (!DIGITS.test(value) || value.replace(/^0+/, "") === "") {
      throw badRequest(`${name} must be a positive whole number`);
    }
    return Number(value);
  };
  const page = read("page", 1);
  const perPage = Math.min(read("per_page", defaultPerPage), maxPerPage);
  return { page, perPage, offset: (page - 1) * perPage };
}

export function pageOf(items, { offset, perPage }) {
  return items.slice(offset, offset + perPage);
}

export function links(path, query, { page, perPage }, total) {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const url = (n) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (k !== "page") q.append(k, v);
    q.append("page", String(n));
    return `${path}?${q.toString()}`;
  };
  const parts = [];
  if (page > 1) parts.push(`<${url(page - 1)}>; rel="prev"`);
  if (page < lastPage) parts.push(`<${url(page + 1)}>; rel="next"`);
  return parts.join(", ");
}
