// How an account's type is named on screen.
import { accountType, type Account } from '../../domain/account';
import { countryName, MEXICO } from '../../domain/countries';

const TYPE_LABEL = { empresa: 'Persona moral', persona: 'Persona física', extranjero: 'Residente en el extranjero' } as const;

export function accountTypeLabel(a: Pick<Account, 'rfc'>): string {
  return TYPE_LABEL[accountType(a)];
}

export function accountCountry(a: Pick<Account, 'rfc' | 'residencia_fiscal'>): string {
  if (accountType(a) === 'extranjero') return countryName(a.residencia_fiscal ?? '') ?? (a.residencia_fiscal || '—');
  return countryName(MEXICO) ?? 'México';
}
