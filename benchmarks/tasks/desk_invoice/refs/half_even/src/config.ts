// Settings from the environment, with the defaults an office of a few dozen people needs.

export interface Config {
  host: string;
  port: number;
  dataFile: string;
  /** The longest booking, in minutes. */
  maxBookingMinutes: number;
  /** Hosts room webhooks may point at (see src/webhooks.ts). */
  webhookHosts: string[];
  /** The price of a room for an hour, in cents (DESKBOOK_HOURLY_RATE, in euros). */
  hourlyRateCents: number;
}

export const DEFAULTS: Config = {
  host: "127.0.0.1",
  port: 8080,
  dataFile: "data/deskbook.json",
  maxBookingMinutes: 8 * 60,
  webhookHosts: [],
  hourlyRateCents: 0,
};

function integer(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

/** A price in euros with at most two decimals ("18.45", "20", "7.5") as whole cents, read exactly. */
function cents(name: string, raw: string | undefined): number {
  if (raw === undefined || raw === "") return 0;
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(raw);
  if (!m) throw new Error(`${name} must be a price in euros like 18.45, got ${JSON.stringify(raw)}`);
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

/** The configuration from environment variables (DESKBOOK_*), over the defaults. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  return {
    host: env.DESKBOOK_HOST || DEFAULTS.host,
    port: integer("DESKBOOK_PORT", env.DESKBOOK_PORT, DEFAULTS.port),
    dataFile: env.DESKBOOK_DATA || DEFAULTS.dataFile,
    maxBookingMinutes: integer("DESKBOOK_MAX_MINUTES", env.DESKBOOK_MAX_MINUTES, DEFAULTS.maxBookingMinutes),
    webhookHosts: (env.DESKBOOK_WEBHOOK_HOSTS ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    hourlyRateCents: cents("DESKBOOK_HOURLY_RATE", env.DESKBOOK_HOURLY_RATE),
  };
}
