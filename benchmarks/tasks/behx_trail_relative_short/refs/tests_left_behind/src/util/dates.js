// Dates as the pages show them.

// [name, abbreviation, seconds]
const UNITS = [
  ["year", "y", 365 * 24 * 3600],
  ["month", "mo", 30 * 24 * 3600],
  ["week", "w", 7 * 24 * 3600],
  ["day", "d", 24 * 3600],
  ["hour", "h", 3600],
  ["minute", "m", 60],
];

/**
 * "3 days ago", "just now", "in 2 hours"; with `short`, "3d ago", "in 2h".
 * @param {string | Date} when
 * @param {{ now?: Date, short?: boolean }} [options]
 */
export function relativeTime(when, { now = new Date(), short = false } = {}) {
  const then = when instanceof Date ? when : new Date(when);
  if (Number.isNaN(then.getTime())) return "some time ago";
  const seconds = Math.round((now.getTime() - then.getTime()) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return "just now";
  for (const [unit, abbreviation, size] of UNITS) {
    if (abs >= size) {
      const n = Math.floor(abs / size);
      const words = short ? `${n}${abbreviation}` : `${n} ${unit}${n === 1 ? "" : "s"}`;
      return seconds >= 0 ? `${words} ago` : `in ${words}`;
    }
  }
  return "just now";
}

/** 2024-03-05 for a Date or an ISO string (UTC). */
export function isoDate(when) {
  const d = when instanceof Date ? when : new Date(when);
  return d.toISOString().slice(0, 10);
}

/**
 * A date typed in a search ("2024-03-05"), as the Date of its first moment, UTC; null when
 * it is not a real calendar date.
 */
export function parseDay(text) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date;
}
