// The multi-ticket list (spec §4 'Multi ticket'): tickets added one by one, no duplicates, 2 to 10.
import type { FieldValue } from '../../../domain/merchant-fields';
import { MSG } from '../../../domain/messages';
import type { VerifiedTicket } from '../../api/invoicing';
import { sameTicket } from '../fields/field-model';

export const MULTI_MIN = 2;
export const MULTI_MAX = 10;
export const MULTI_TOO_FEW = 'Agrega al menos dos tickets para pedir una factura múltiple.';
export const MULTI_TOO_MANY = `Una factura múltiple puede llevar hasta ${MULTI_MAX} tickets.`;

export interface MultiEntry {
  values: FieldValue[];
  ticket: VerifiedTicket;
}

/** Same ticket = same merchant reference, or the same values typed again. */
export function isDuplicate(list: readonly MultiEntry[], values: readonly FieldValue[], ref?: string): boolean {
  return list.some((e) => (ref !== undefined && e.ticket.ref === ref) || sameTicket(e.values, values));
}

export function addEntry(list: readonly MultiEntry[], entry: MultiEntry): { list: MultiEntry[] } | { error: string } {
  if (isDuplicate(list, entry.values, entry.ticket.ref)) return { error: MSG.multiDuplicate };
  if (list.length >= MULTI_MAX) return { error: MULTI_TOO_MANY };
  return { list: [...list, entry] };
}

export function removeEntry(list: readonly MultiEntry[], ref: string): MultiEntry[] {
  return list.filter((e) => e.ticket.ref !== ref);
}

/** Null when the list can be invoiced, else why not. */
export function checkList(list: readonly MultiEntry[]): string | null {
  if (list.length < MULTI_MIN) return MULTI_TOO_FEW;
  if (list.length > MULTI_MAX) return MULTI_TOO_MANY;
  return null;
}

/** Sum of the tickets' totals in cents (display only; the server computes the invoice). */
export function listTotal(list: readonly MultiEntry[]): number {
  return list.reduce((sum, e) => sum + Math.round(Number(e.ticket.total) * 100), 0) / 100;
}
