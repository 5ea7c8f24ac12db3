// Calendar rules (spec §9): months and years are Mexico City calendar months everywhere (mexico-time.ts);
// the year list goes back to 2013.
import { mexicoCityDate, mexicoCityTime, mexicoCityToday } from './mexico-time';

export const FIRST_YEAR = 2013;

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

/** Years offered by the pickers: the current one back to 2013, newest first. */
export function pickerYears(now: Date = new Date()): number[] {
  const { year } = mexicoCityDate(now);
  const years: number[] = [];
  for (let y = year; y >= FIRST_YEAR; y--) years.push(y);
  return years;
}

/** Display date YYYY-MM-DD (spec §9). */
export function displayDate(at: Date | string): string {
  return mexicoCityToday(typeof at === 'string' ? new Date(at) : at);
}

/** "2026-11" month key used for indexes and queries. */
export function monthKey(year: number, month: number): string {
  return `${year}-${String(month).padStart(2, '0')}`;
}

/** Last SAT sync, spec §9 'MMMM DD del YYYY a las h:mm a' in Spanish: "noviembre 05 del 2026 a las 3:07 pm". */
export function lastSyncDate(at: Date | string): string {
  const d = typeof at === 'string' ? new Date(at) : at;
  const { year, month, day } = mexicoCityDate(d);
  const { hour, minute } = mexicoCityTime(d);
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${MONTH_NAMES[month - 1]} ${String(day).padStart(2, '0')} del ${year} a las ${h12}:${String(minute).padStart(2, '0')} ${hour < 12 ? 'am' : 'pm'}`;
}
