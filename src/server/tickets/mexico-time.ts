// Mexico City calendar on the server (DESIGN §3): ISO strings with the city's offset, and the UTC
// bounds of its months and years for range queries on received_at. Uses the tz database through
// Intl, so dates from the years with daylight saving time (before 2023) come out right too.
import { zoneOffsetMinutes } from '../../domain/cfdi-time-zone';
import { MX_TZ } from '../../domain/dates';

/** Minutes east of UTC at that instant (-360 for UTC-6). */
export function mexicoCityOffsetMinutes(at: Date): number {
  return zoneOffsetMinutes(MX_TZ, at);
}

/** "2026-11-20T12:00:00-06:00" */
export function mexicoCityIso(at: Date): string {
  const offset = mexicoCityOffsetMinutes(at);
  const local = new Date(at.getTime() + offset * 60_000).toISOString().slice(0, 19);
  const abs = Math.abs(offset);
  const sign = offset < 0 ? '-' : '+';
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** The instant of 00:00 in Mexico City on that day (month and day may overflow, as in Date.UTC). */
export function mexicoCityMidnight(year: number, month: number, day: number): Date {
  const wall = Date.UTC(year, month - 1, day);
  // Two passes: the offset of the guess can differ from the offset at the real instant.
  const first = wall - mexicoCityOffsetMinutes(new Date(wall)) * 60_000;
  return new Date(wall - mexicoCityOffsetMinutes(new Date(first)) * 60_000);
}

/** [from, to) of a Mexico City month (1-12). */
export function monthRange(year: number, month: number): { from: Date; to: Date } {
  return { from: mexicoCityMidnight(year, month, 1), to: mexicoCityMidnight(year, month + 1, 1) };
}

/** [from, to) of a Mexico City year. */
export function yearRange(year: number): { from: Date; to: Date } {
  return { from: mexicoCityMidnight(year, 1, 1), to: mexicoCityMidnight(year + 1, 1, 1) };
}
