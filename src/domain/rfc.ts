// RFC (tax id) shape rules (spec §5 and §9; SAT t_RFC). The check digit is not enforced here:
// SAT itself has valid RFCs with a wrong check digit, and the generic RFCs fail it.
export const RFC_FOREIGN = 'XEXX010101000';
export const RFC_GENERIC = 'XAXX010101000';
export const RFC_COMPANY_LENGTH = 12;
export const RFC_PERSON_LENGTH = 13;

const DATE = '[0-9]{2}(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])';
const COMPANY_RE = new RegExp(`^[A-ZÑ&]{3}${DATE}[A-Z0-9]{3}$`);
const PERSON_RE = new RegExp(`^[A-ZÑ&]{4}${DATE}[A-Z0-9]{3}$`);

export type PersonType = 'empresa' | 'persona' | 'extranjero';

export function normalizeRfc(raw: string): string {
  return raw.trim().toUpperCase().replace(/\s+/g, '');
}

export function isCompanyRfc(raw: string): boolean {
  return COMPANY_RE.test(normalizeRfc(raw));
}

export function isPersonRfc(raw: string): boolean {
  return PERSON_RE.test(normalizeRfc(raw));
}

export function isValidRfc(raw: string): boolean {
  return isCompanyRfc(raw) || isPersonRfc(raw);
}

/** Which tax-data tab an RFC belongs to: 12 = empresa, 13 = persona, the generic foreign RFC = extranjero. */
export function personTypeOf(raw: string): PersonType | null {
  const rfc = normalizeRfc(raw);
  if (rfc === RFC_FOREIGN) return 'extranjero';
  if (isCompanyRfc(rfc)) return 'empresa';
  if (isPersonRfc(rfc)) return 'persona';
  return null;
}

/** Whether an RFC matches the tab it was typed in. */
export function rfcFitsType(raw: string, type: PersonType): boolean {
  const rfc = normalizeRfc(raw);
  if (type === 'extranjero') return rfc === RFC_FOREIGN;
  if (type === 'empresa') return isCompanyRfc(rfc);
  return isPersonRfc(rfc) && rfc !== RFC_FOREIGN;
}
