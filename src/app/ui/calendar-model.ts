// The small Spanish date picker's pure part (spec §5, §9): yyyy/mm/dd, weeks starting on Sunday
// as Mexican calendars do, future days disabled.
import { MONTH_NAMES, capitalize } from '../../domain/dates';

export const WEEKDAYS = [
  { short: 'Do', long: 'domingo' },
  { short: 'Lu', long: 'lunes' },
  { short: 'Ma', long: 'martes' },
  { short: 'Mi', long: 'miércoles' },
  { short: 'Ju', long: 'jueves' },
  { short: 'Vi', long: 'viernes' },
  { short: 'Sá', long: 'sábado' },
] as const;

export interface Ymd {
  year: number;
  month: number;
  day: number;
}

const pad = (n: number) => String(n).padStart(2, '0');

export function formatYmd(d: Ymd): string {
  return `${d.year}/${pad(d.month)}/${pad(d.day)}`;
}

/** yyyy/mm/dd → its parts, or null when it is not a real date. */
export function parseYmd(s: string): Ymd | null {
  const m = /^(\d{4})\/(\d{2})\/(\d{2})$/.exec(s.trim());
  if (!m) return null;
  const d = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  const dt = new Date(Date.UTC(d.year, d.month - 1, d.day));
  if (dt.getUTCFullYear() !== d.year || dt.getUTCMonth() !== d.month - 1 || dt.getUTCDate() !== d.day) return null;
  return d;
}

export function compareYmd(a: Ymd, b: Ymd): number {
  return (a.year - b.year) * 10000 + (a.month - b.month) * 100 + (a.day - b.day);
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export interface CalendarDay extends Ymd {
  label: string;
  disabled: boolean;
  today: boolean;
  selected: boolean;
}

/** Weeks of a month (null for the blanks before the 1st and after the last day). */
export function monthGrid(year: number, month: number, today: Ymd, selected: Ymd | null): (CalendarDay | null)[][] {
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  const cells: (CalendarDay | null)[] = Array.from({ length: first }, () => null);
  for (let day = 1; day <= daysInMonth(year, month); day++) {
    const d = { year, month, day };
    const weekday = WEEKDAYS[(first + day - 1) % 7]!.long;
    cells.push({
      ...d,
      label: `${weekday} ${day} de ${MONTH_NAMES[month - 1]} de ${year}`,
      disabled: compareYmd(d, today) > 0,
      today: compareYmd(d, today) === 0,
      selected: selected !== null && compareYmd(d, selected) === 0,
    });
  }
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (CalendarDay | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

export function stepMonth(year: number, month: number, delta: number): { year: number; month: number } {
  const index = year * 12 + (month - 1) + delta;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

export function calendarTitle(year: number, month: number): string {
  return `${capitalize(MONTH_NAMES[month - 1] ?? '')} ${year}`;
}
