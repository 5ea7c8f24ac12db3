// Calendar rules (spec §9): months and years are Mexico City calendar months everywhere;
// the year list goes back to 2013.
export const FIRST_YEAR = 2013;
export const MX_TZ = 'America/Mexico_City';

export const MONTH_NAMES = [
  'enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio',
  'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre',
] as const;

export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** "Noviembre" for month 11 (1-based), as titles show it. */
export function monthTitle(month: number): string {
  return capitalize(MONTH_NAMES[month - 1] ?? '');
}

// Mexico City has kept UTC-6 all year since it dropped daylight saving on 2022-10-30 02:00 local.
// After that instant plain arithmetic is exact; older dates go through the time-zone database,
// which is created only when needed (loading it costs ~20 ms on a phone at start-up).
const FIXED_OFFSET_SINCE = Date.UTC(2022, 9, 30, 7);
const OFFSET_MS = -6 * 60 * 60 * 1000;
let parts: Intl.DateTimeFormat | undefined;

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

/** Years offered by the pickers: the current one back to 2013, newest first. */
export function pickerYears(now: Date = new Date()): number[] {
  const { year } = mexicoCityDate(now);
  const years: number[] = [];
  for (let y = year; y >= FIRST_YEAR; y--) years.push(y);
  return years;
}

/** Display date YYYY-MM-DD (spec §9). */
export function displayDate(at: Date | string): string {
  const d = typeof at === 'string' ? new Date(at) : at;
  const { year, month, day } = mexicoCityDate(d);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** "2026-11" month key used for indexes and queries. */
export function monthKey(year: number, month: number): string {
  return `${year}-${String(month).padStart(2, '0')}`;
}

let clock: Intl.DateTimeFormat | undefined;

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

/** Last SAT sync, spec §9 'MMMM DD del YYYY a las h:mm a' in Spanish: "noviembre 05 del 2026 a las 3:07 pm". */
export function lastSyncDate(at: Date | string): string {
  const d = typeof at === 'string' ? new Date(at) : at;
  const { year, month, day } = mexicoCityDate(d);
  const { hour, minute } = mexicoCityTime(d);
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${MONTH_NAMES[month - 1]} ${String(day).padStart(2, '0')} del ${year} a las ${h12}:${String(minute).padStart(2, '0')} ${hour < 12 ? 'am' : 'pm'}`;
}
