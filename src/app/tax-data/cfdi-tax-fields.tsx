// Código postal and Régimen fiscal (CFDI 4.0 asks both of a receiver): shared by the tax-data pane
// (registration, add client) and the billing-data editor. Optional until an invoice needs them.
import { regimesFor } from '../../domain/invoicing';
import { Select, TextField } from '../ui/fields';

export function CfdiTaxFields({
  rfc,
  postalCode,
  taxRegime,
  onChange,
  errors,
  postalRef,
  regimeRef,
}: {
  rfc: string;
  postalCode: string;
  taxRegime: string;
  onChange: (change: { postalCode?: string; taxRegime?: string }) => void;
  errors: { postalCode?: string | null; taxRegime?: string | null };
  postalRef?: (el: HTMLInputElement | null) => void;
  regimeRef?: (el: HTMLSelectElement | null) => void;
}) {
  // Personas morales (12) and físicas (13) have different regimes; until the RFC says which, offer both.
  const options = (rfc.length >= 12 ? regimesFor(rfc) : regimesFor('XIQB891116QE4').concat(regimesFor('EKU9003173C9')))
    .filter((r, i, all) => all.findIndex((x) => x.code === r.code) === i)
    .map((r) => ({ value: r.code, label: `${r.code} · ${r.name}` }));
  return (
    <>
      <TextField
        label="Código postal"
        value={postalCode}
        onChange={(e) => onChange({ postalCode: e.target.value.replace(/\D/g, '').slice(0, 5) })}
        inputMode="numeric"
        maxLength={5}
        autoComplete="postal-code"
        hint="El de tu domicilio fiscal, como aparece en tu constancia de situación fiscal. Lo pide el CFDI 4.0."
        error={errors.postalCode ?? null}
        inputRef={postalRef}
      />
      <Select
        label="Régimen fiscal"
        value={taxRegime}
        onChange={(e) => onChange({ taxRegime: e.target.value })}
        options={options}
        placeholder="- Selecciona tu régimen -"
        error={errors.taxRegime ?? null}
        selectRef={regimeRef}
      />
    </>
  );
}
