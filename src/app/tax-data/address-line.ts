// A tax account's domicilio fiscal on one line: the join screen's host and a collaborator's profile.
import type { Invitation } from '../../domain/company';

/** One line of the address, skipping what is empty ('' when nothing is known). */
export function addressLine(a: Invitation['host']['address']): string {
  const street = [a.street, a.external_number, a.internal_number ? `int. ${a.internal_number}` : ''].filter(Boolean).join(' ');
  const place = [a.neighborhood, a.city, a.state, a.zip_code ? `C.P. ${a.zip_code}` : ''].filter(Boolean).join(', ');
  return [street, place].filter(Boolean).join(', ');
}
