// Código postal and Régimen fiscal (CFDI 4.0 asks both of a receiver): shared by the tax-data pane
// (registration, add client) and the billing-data editor. Optional while registering, required when editing.
import { TAX_REGIMES } from '../../domain/invoicing';
import { RFC_COMPANY_LENGTH, RFC_PERSON_LENGTH, type PersonType } from '../../domain/rfc';
import { Select, TextField } from '../ui/fields';

/** The regimes of a person type: the tab says which when there is one, else the RFC's length; both until then. */
export function regimeOptions(type: PersonType | undefined, rfc: string) {
  const kind = type ?? (rfc.length === RFC_COMPANY_LENGTH ? 'empresa' : rfc.length === RFC_PERSON_LENGTH ? 'persona' : undefined);
  return TAX_REGIMES.filter((r) => (kind === 'empresa' ? r.moral : kind === 'persona' ? r.fisica : r.moral || r.fisica)).map((r) => ({
    value: r.code,
    label: `${r.code} · ${r.name}`,
  }));
}

export function CfdiTaxFields({
  type,
  rfc,
  postalCode,
  taxRegime,
  onChange,
  errors,
  postalRef,
  regimeRef,
  required = false,
}: {
  /** The tab or account's person type; the régimen list holds only its regimes. */
  type?: PersonType;
  rfc: string;
  postalCode: string;
  taxRegime: string;
  onChange: (change: { postalCode?: string; taxRegime?: string }) => void;
  errors: { postalCode?: string | null; taxRegime?: string | null };
  postalRef?: (el: HTMLInputElement | null) => void;
  regimeRef?: (el: HTMLSelectElement | null) => void;
  required?: boolean;
}) {
  return (
    <>
      <TextField
        label="Código postal"
        value={postalCode}
        onChange={(e) => onChange({ postalCode: e.target.value.replace(/\D/g, '').slice(0, 5) })}
        inputMode="numeric"
        maxLength={5}
        autoComplete="postal-code"
        aria-required={required || undefined}
        hint="El de tu domicilio fiscal, como aparece en tu constancia de situación fiscal. Lo pide el CFDI 4.0."
        error={errors.postalCode ?? null}
        inputRef={postalRef}
      />
      <Select
        label="Régimen fiscal"
        value={taxRegime}
        onChange={(e) => onChange({ taxRegime: e.target.value })}
        options={regimeOptions(type, rfc)}
        placeholder="- Selecciona tu régimen -"
        error={errors.taxRegime ?? null}
        selectRef={regimeRef}
      />
    </>
  );
}
