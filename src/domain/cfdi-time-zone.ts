// A CFDI's Fecha is the local wall time where it is issued (LugarExpedicion, a postal code), with no
// offset (SAT's rule CFDI40101). Mexico has five zones that matter: the postal code's first two digits
// name its state (SAT's c_CodigoPostal gives each code its state), and the state its zone — Baja
// California follows US daylight time (UTC-8/-7); Ciudad Juárez's 32xxx likewise at UTC-7/-6; Baja
// California Sur, Sinaloa, Nayarit (UTC-7) and Sonora (UTC-7 all year); Quintana Roo UTC-5; the rest
// Mexico City's UTC-6. Uses the tz database through Intl, so the years with daylight saving time (before
// 2023) come out right too (mexico-time.ts reads the offsets).
import { instantOfWallTime, wallTimeIn } from './mexico-time';

export type MexicoZone =
  | 'America/Tijuana'
  | 'America/Ciudad_Juarez'
  | 'America/Mazatlan'
  | 'America/Hermosillo'
  | 'America/Cancun'
  | 'America/Mexico_City';

const BY_PREFIX: Readonly<Record<string, MexicoZone>> = {
  '21': 'America/Tijuana',
  '22': 'America/Tijuana',
  '23': 'America/Mazatlan', // Baja California Sur
  '32': 'America/Ciudad_Juarez',
  '63': 'America/Mazatlan', // Nayarit
  '77': 'America/Cancun', // Quintana Roo
  '80': 'America/Mazatlan', // Sinaloa
  '81': 'America/Mazatlan',
  '82': 'America/Mazatlan',
  '83': 'America/Hermosillo', // Sonora
  '84': 'America/Hermosillo',
  '85': 'America/Hermosillo',
};

/** Five digits whose state prefix exists (01–16 Ciudad de México … 99 Zacatecas; no state starts with 00 or 17–19). */
export function isMexicanPostalCode(cp: string): boolean {
  if (!/^\d{5}$/.test(cp)) return false;
  const prefix = Number(cp.slice(0, 2));
  return prefix >= 1 && !(prefix >= 17 && prefix <= 19);
}

/** The time zone of a Mexican postal code; Mexico City's for anything it cannot place. */
export function zoneOfPostalCode(cp: string): MexicoZone {
  return (isMexicanPostalCode(cp) && BY_PREFIX[cp.slice(0, 2)]) || 'America/Mexico_City';
}

/** SAT's Fecha form of an instant at a place of issue: "2026-07-01T05:00:00" (no offset, no fraction). */
export function cfdiFechaAt(at: Date, cp: string): string {
  return wallTimeIn(zoneOfPostalCode(cp), at);
}

/** The instant a Fecha ("2026-07-01T05:00:00", wall time at LugarExpedicion) names; Invalid Date when malformed. */
export function instantOfCfdiFecha(fecha: string, cp: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(fecha);
  if (!m) return new Date(NaN);
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  return instantOfWallTime(zoneOfPostalCode(cp), wall);
}
