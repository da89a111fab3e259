// The four `format`s, each a strict reading of its RFC. A format only constrains strings.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

// E-mail (RFC 5321 mailbox, simplified): dot-atom or quoted local part; a host name, an IPv4
// literal or an IPv6 literal after the "@".
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LOCAL = new RegExp(`^(?:${ATEXT}(?:\\.${ATEXT})*|"(?:[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\x20-\\x7e])*")$`);
const HOST = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IPV6_LITERAL = /^\[IPv6:[0-9A-Fa-f:.]+\]$/;

export type FormatName = "date" | "date-time" | "email" | "uuid";

export const FORMATS: Record<FormatName, (s: string) => boolean> = {
  date: isDate,
  "date-time": isDateTime,
  email: isEmail,
  uuid: (s) => UUID.test(s),
};

export function isFormatName(name: unknown): name is FormatName {
  return typeof name === "string" && Object.hasOwn(FORMATS, name);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** RFC 3339 full-date: YYYY-MM-DD, a real day of a real month (leap years included). */
function isDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/**
 * RFC 3339 date-time: full-date "T" HH:MM:SS[.frac] then "Z" or ±HH:MM ("t" and "z" accepted).
 * Second 60 (a leap second) only at 23:59 UTC, once the offset is taken away.
 */
function isDateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  if (!m || !isDate(m[1])) return false;
  const [hour, minute, second] = [Number(m[2]), Number(m[3]), Number(m[4])];
  const sign = m[6] === "-" ? -1 : 1;
  const offH = m[7] === undefined ? 0 : Number(m[7]);
  const offM = m[8] === undefined ? 0 : Number(m[8]);
  if (hour > 23 || minute > 59 || second > 60 || offH > 23 || offM > 59) return false;
  if (second < 60) return true;
  const utcMinutes = (((hour * 60 + minute - sign * (offH * 60 + offM)) % 1440) + 1440) % 1440;
  return utcMinutes === 23 * 60 + 59;
}

function isEmail(s: string): boolean {
  const at = s.lastIndexOf("@");
  if (at <= 0 || at === s.length - 1) return false;
  const local = s.slice(0, at);
  const domain = s.slice(at + 1);
  if (!LOCAL.test(local)) return false;
  if (domain.startsWith("[")) return IPV6_LITERAL.test(domain) || isIpv4Literal(domain);
  return HOST.test(domain);
}

function isIpv4Literal(domain: string): boolean {
  const m = /^\[(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\]$/.exec(domain);
  return m !== null && m.slice(1).every((octet) => Number(octet) <= 255);
}
