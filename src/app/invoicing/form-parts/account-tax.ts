// CFDI 4.0 needs the receiver's postal code and regime: what the selected account lacks, if known.
import type { Account } from '../../../domain/account';

/** The account's regime (`regimen_fiscal`); undefined when a copy stored before it was added lacks it. */
export function accountRegime(a: Account): string | undefined {
  const r = (a as Partial<Pick<Account, 'regimen_fiscal'>>).regimen_fiscal;
  return r === undefined ? undefined : (r ?? '');
}

export function accountPostalCode(a: Account): string {
  return a.address[0]?.zip_code?.trim() ?? '';
}

/** Spanish names of the missing data, e.g. ['código postal', 'régimen fiscal']. */
export function missingTaxData(a: Account): string[] {
  const missing: string[] = [];
  if (!/^[0-9]{5}$/.test(accountPostalCode(a))) missing.push('código postal');
  const regime = accountRegime(a);
  if (regime !== undefined && !regime.trim()) missing.push('régimen fiscal');
  return missing;
}
