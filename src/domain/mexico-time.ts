// Mexico City time, in one place (spec §9, DESIGN §3): months and years are Mexico City calendar months
// everywhere, and SAT's deadlines and wall-clock dates run on its clock. Pure: the tz database through
// Intl only, so the years with daylight saving time (before 2023) come out right too. Also the offset
// of any zone, which the CFDI places of issue (cfdi-time-zone.ts) share.

export const MX_TZ = 'America/Mexico_City';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

// ---- any zone ----------------------------------------------------------------------------------

const offsetFormats = new Map<string, Intl.DateTimeFormat>();
/**
 * Offsets already asked, by zone and UTC hour: Intl's formatToParts costs tens of microseconds and every
 * imported CFDI asks twice, while these zones change offset only on the hour (whole-hour offsets).
 */
const offsetsByHour = new Map<string, number>();

/** Minutes east of UTC in that zone at that instant (-480 for UTC-8). */
export function zoneOffsetMinutes(zone: string, at: Date): number {
  const key = `${zone}|${Math.floor(at.getTime() / HOUR_MS)}`;
  const known = offsetsByHour.get(key);
  if (known !== undefined) return known;
  const minutes = offsetFromIntl(zone, at);
  if (offsetsByHour.size >= 50_000) offsetsByHour.clear();
  offsetsByHour.set(key, minutes);
  return minutes;
}

function offsetFromIntl(zone: string, at: Date): number {
  let f = offsetFormats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    offsetFormats.set(zone, f);
  }
  const name = f.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!m) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '-' ? -minutes : minutes;
}

/** The instant a wall-clock time in `zone` names; `wall` is that time read as if it were UTC (Date.UTC). */
export function instantOfWallTime(zone: string, wall: number): Date {
  // Two passes: the offset of the guess can differ from the offset at the real instant (DST edges).
  const first = wall - zoneOffsetMinutes(zone, new Date(wall)) * MINUTE_MS;
  return new Date(wall - zoneOffsetMinutes(zone, new Date(first)) * MINUTE_MS);
}

/** "2026-07-01T05:00:00": the wall-clock time in `zone` at that instant (no offset, no fraction). */
export function wallTimeIn(zone: string, at: Date): string {
  return new Date(at.getTime() + zoneOffsetMinutes(zone, at) * MINUTE_MS).toISOString().slice(0, 19);
}

// ---- Mexico City -------------------------------------------------------------------------------

// Mexico City has kept UTC-6 all year since it dropped daylight saving on 2022-10-30 02:00 local.
// After that instant plain arithmetic is exact; older dates go through the time-zone database,
// which is created only when needed (loading it costs ~20 ms on a phone at start-up).
const FIXED_OFFSET_SINCE = Date.UTC(2022, 9, 30, 7);
const OFFSET_MS = -6 * HOUR_MS;
let parts: Intl.DateTimeFormat | undefined;
let clock: Intl.DateTimeFormat | undefined;

const pad2 = (n: number) => String(n).padStart(2, '0');

/** Year, month (1-12) and day of an instant on Mexico City's calendar. */
export function mexicoCityDate(at: Date = new Date()): { year: number; month: number; day: number } {
  if (at.getTime() >= FIXED_OFFSET_SINCE) {
    const local = new Date(at.getTime() + OFFSET_MS);
    return { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate() };
  }
  parts ??= new Intl.DateTimeFormat('en-CA', { timeZone: MX_TZ, year: 'numeric', month: '2-digit', day: '2-digit' });
  const p = Object.fromEntries(parts.formatToParts(at).map((x) => [x.type, x.value]));
  return { year: Number(p.year), month: Number(p.month), day: Number(p.day) };
}

/** Hour (0-23) and minute of an instant on Mexico City's clock (same offset rule as mexicoCityDate). */
export function mexicoCityTime(at: Date): { hour: number; minute: number } {
  if (at.getTime() >= FIXED_OFFSET_SINCE) {
    const local = new Date(at.getTime() + OFFSET_MS);
    return { hour: local.getUTCHours(), minute: local.getUTCMinutes() };
  }
  clock ??= new Intl.DateTimeFormat('en-GB', { timeZone: MX_TZ, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const p = Object.fromEntries(clock.formatToParts(at).map((x) => [x.type, x.value]));
  return { hour: Number(p.hour), minute: Number(p.minute) };
}

/** "2026-11-20": the day of that instant (today by default) on Mexico City's calendar. */
export function mexicoCityToday(now: Date = new Date()): string {
  const { year, month, day } = mexicoCityDate(now);
  return `${year}-${pad2(month)}-${pad2(day)}`;
}

/** "2026-11": the month of that instant on Mexico City's calendar (where SAT's deadlines run). */
export function mexicoCityMonth(at: Date): string {
  const { year, month } = mexicoCityDate(at);
  return `${year}-${pad2(month)}`;
}

/** Minutes east of UTC in Mexico City at that instant (-360 for UTC-6). */
export function mexicoCityOffsetMinutes(at: Date): number {
  return zoneOffsetMinutes(MX_TZ, at);
}

/** SAT's Fecha form of Mexico City's wall-clock time, no offset (CFDI40101): "2026-05-01T12:00:00". */
export function mexicoCityDateTime(at: Date): string {
  return wallTimeIn(MX_TZ, at);
}

/** "2026-11-20T12:00:00-06:00" */
export function mexicoCityIso(at: Date): string {
  const offset = mexicoCityOffsetMinutes(at);
  const local = new Date(at.getTime() + offset * MINUTE_MS).toISOString().slice(0, 19);
  const abs = Math.abs(offset);
  const sign = offset < 0 ? '-' : '+';
  return `${local}${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}

/** The instant of that wall-clock time in Mexico City (month and day may overflow, as in Date.UTC). */
export function mexicoCityInstant(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): Date {
  return instantOfWallTime(MX_TZ, Date.UTC(year, month - 1, day, hour, minute, second));
}

/** The instant of 00:00 in Mexico City on that day (month and day may overflow, as in Date.UTC). */
export function mexicoCityMidnight(year: number, month: number, day: number): Date {
  return mexicoCityInstant(year, month, day);
}

/** [from, to) of a Mexico City month (1-12): the UTC bounds for range queries on an instant. */
export function monthRange(year: number, month: number): { from: Date; to: Date } {
  return { from: mexicoCityMidnight(year, month, 1), to: mexicoCityMidnight(year, month + 1, 1) };
}

/** [from, to) of a Mexico City year. */
export function yearRange(year: number): { from: Date; to: Date } {
  return { from: mexicoCityMidnight(year, 1, 1), to: mexicoCityMidnight(year + 1, 1, 1) };
}
