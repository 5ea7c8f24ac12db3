// What the 'Ver datos' dialog lists of an active collaborator (spec §6: the host sees the profile and the
// tax data of the RFC accepted with, never passwords): the profile the server answers, as label/value rows.
import { accountDisplayName } from '../../domain/account';
import { TAX_REGIMES } from '../../domain/invoicing';
import type { OAuthProfile } from '../../domain/oauth';
import { addressLine } from '../tax-data/address-line';

export interface ProfileFact {
  label: string;
  value: string;
}

/** Regime code and its SAT name ('612 Personas Físicas con Actividades…'); the bare code when unknown. */
export function regimeLabel(code: string): string {
  const found = TAX_REGIMES.find((r) => r.code === code);
  return found ? `${found.code} ${found.name}` : code;
}

/** The rows to show, in order; optional facts (address, foreign residence) only when known. */
export function profileFacts(p: OAuthProfile): ProfileFact[] {
  const a = p.account;
  const rows: ProfileFact[] = [
    { label: 'Usuario', value: p.user.username },
    { label: 'E-mail', value: p.user.email },
    { label: 'RFC', value: a.rfc },
    { label: 'Nombre o razón social', value: accountDisplayName(a) },
    { label: 'Régimen fiscal', value: a.regimen_fiscal ? regimeLabel(a.regimen_fiscal) : '—' },
  ];
  const address = a.address[0] ? addressLine(a.address[0]) : '';
  if (address) rows.push({ label: 'Domicilio', value: address });
  if (a.residencia_fiscal) rows.push({ label: 'Residencia fiscal', value: a.residencia_fiscal });
  if (a.num_reg_id_trib) rows.push({ label: 'NumRegIdTrib', value: a.num_reg_id_trib });
  return rows;
}
