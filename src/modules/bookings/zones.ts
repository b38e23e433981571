// Time zones in JavaScript, for what the API reads and writes (the database does the slot
// arithmetic with AT TIME ZONE): an IANA name checked and made canonical, a date's local midnight
// as an instant, and an instant written in local time with its offset.
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// An IANA name: letters, digits, _, -, + in /-separated parts ("UTC", "Europe/Berlin",
// "America/Argentina/Buenos_Aires", "Etc/GMT+5"); never a bare offset ("+01:00"), which PostgreSQL
// would read as a POSIX zone with its sign turned round.
const IANA = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

// cache: one formatter per zone (Intl.DateTimeFormat is costly to build); the zones are a closed set.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(zone, format);
  }
  return format;
}

/** The zone's canonical IANA name, or null when it is not one. */
export function canonicalZone(name: string): string | null {
  if (!IANA.test(name) || name.length > 64) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The zone's offset from UTC at an instant, in minutes (east positive). */
function offsetMinutes(zone: string, at: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(new Date(at))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  const local = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return Math.round((local - Math.floor(at / 1000) * 1000) / 60_000);
}

/** Whether text is a calendar date (`2026-10-24`) that exists. */
export function isDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const at = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return at.toISOString().slice(0, 10) === text;
}

/**
 * The instant a local date begins in the zone (its midnight; where a clock change skips midnight,
 * the first local time of the day). Two passes: the offset at the guess, then at the result.
 */
export function localMidnight(date: string, zone: string): Date {
  const wall = Date.parse(`${date}T00:00:00.000Z`);
  let at = wall - offsetMinutes(zone, wall) * 60_000;
  at = wall - offsetMinutes(zone, at) * 60_000;
  return new Date(at);
}

/** The instant in the zone's local time with its offset: `2026-10-25T02:30:00+01:00`. */
export function localIso(at: Date, zone: string): string {
  const offset = offsetMinutes(zone, at.getTime());
  const wall = new Date(at.getTime() + offset * 60_000).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${wall}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * An API time: an ISO 8601 timestamp with a zone or offset (`2026-10-24T09:00:00Z`), or, where
 * dates are taken, a date read as its local midnight in the zone. Null when it is neither.
 */
export function readTime(text: string, zone: string, datesTaken: boolean): Date | null {
  if (isDate(text)) return datesTaken ? localMidnight(text, zone) : null;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : new Date(at);
}
