// What the tax-data pane edits, and how it becomes the domain's TaxData and the new_client body.
import { checkTaxData, type TaxData } from '../../domain/registration';
import { normalizeRfc, RFC_FOREIGN, type PersonType } from '../../domain/rfc';
import { MSG } from '../../domain/messages';
import type { NewClientInput } from '../api/endpoints';

export interface TaxDraft {
  type: PersonType;
  /** What was typed in the RFC box of the Empresa/Persona tabs (Extranjero always uses XEXX010101000). */
  rfc: string;
  name: string;
  firstName: string;
  lastName: string;
  /** Residencia fiscal (c_Pais code), Extranjero only. */
  country: string;
  /** Registro de identidad fiscal (NumRegIdTrib), Extranjero only. */
  taxId: string;
  /** Código postal and régimen fiscal (CFDI 4.0), Empresa/Persona; optional until an invoice needs them. */
  postalCode: string;
  taxRegime: string;
}

export type TaxField = 'rfc' | 'name' | 'firstName' | 'lastName' | 'country' | 'taxId' | 'postalCode' | 'taxRegime';

export const EMPTY_TAX_DRAFT: TaxDraft = {
  type: 'empresa', rfc: '', name: '', firstName: '', lastName: '', country: '', taxId: '', postalCode: '', taxRegime: '',
};

export function effectiveRfc(d: TaxDraft): string {
  return d.type === 'extranjero' ? RFC_FOREIGN : normalizeRfc(d.rfc);
}

export function toTaxData(d: TaxDraft): TaxData {
  switch (d.type) {
    case 'empresa':
      return { type: 'empresa', rfc: effectiveRfc(d), name: d.name, postalCode: d.postalCode, taxRegime: d.taxRegime };
    case 'persona':
      return { type: 'persona', rfc: effectiveRfc(d), firstName: d.firstName, lastName: d.lastName, postalCode: d.postalCode, taxRegime: d.taxRegime };
    case 'extranjero':
      return { type: 'extranjero', rfc: RFC_FOREIGN, name: d.name, country: d.country, taxId: d.taxId };
  }
}

const blank = (s: string) => s.trim().length === 0;

/** The spec's check (registration.ts) plus which field to point at and focus. */
export function checkTaxDraft(d: TaxDraft): { message: string; field: TaxField } | null {
  const message = checkTaxData(toTaxData(d));
  if (!message) return null;
  if (message === MSG.rfcInvalid) return { message, field: 'rfc' };
  if (message === MSG.countryInvalid) return { message, field: 'country' };
  if (message === MSG.postalCodeInvalid) return { message, field: 'postalCode' };
  if (message === MSG.regimeInvalid) return { message, field: 'taxRegime' };
  const order: TaxField[] =
    d.type === 'persona' ? ['firstName', 'lastName'] : d.type === 'empresa' ? ['name'] : ['name', 'taxId', 'country'];
  const field = order.find((f) => blank(d[f])) ?? order[0]!;
  return { message, field };
}

/** The new_client payload of spec §3: address fields empty, foreign fields only for foreigners. */
export function toNewClientBody(d: TaxDraft): NewClientInput {
  const foreign = d.type === 'extranjero';
  return {
    client: {
      rfc: effectiveRfc(d),
      name: d.type === 'persona' ? '' : d.name.trim(),
      first_name: d.type === 'persona' ? d.firstName.trim() : '',
      last_name: d.type === 'persona' ? d.lastName.trim() : '',
      regimen_fiscal: foreign ? '' : d.taxRegime,
    },
    ubication_data: {
      street: '',
      external_number: '',
      internal_number: '',
      neighborhood: '',
      city: '',
      state: '',
      country: '',
      zip_code: foreign ? '' : d.postalCode.trim(),
      num_reg_id_trib: foreign ? d.taxId.trim() : '',
      residencia_fiscal: foreign ? d.country.trim().toUpperCase() : '',
    },
  };
}
