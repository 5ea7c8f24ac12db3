// The anonymous form's receiver stage (spec §2, §5): RFC and its confirmation, 'Soy extranjero' (locks
// the RFC to XEXX010101000 and reveals residencia fiscal and NumRegIdTrib), nombre, código postal,
// régimen (by RFC type), Uso CFDI and e-mail.
import type { Ref } from 'react';
import { COUNTRIES } from '../../../domain/countries';
import { regimesFor, USOS_CFDI, type ReceiverField, type ReceiverForm } from '../../../domain/invoicing';
import { Checkbox, Select, TextField } from '../../ui/fields';
import { setForeign } from './anonymous-flow';

const COUNTRY_OPTIONS = COUNTRIES.filter((c) => c.code !== 'MEX').map((c) => ({ value: c.code, label: c.name }));
const USO_OPTIONS = USOS_CFDI.map((u) => ({ value: u.code, label: `${u.code} — ${u.name}` }));

export interface ReceiverFieldsProps {
  form: ReceiverForm;
  onChange: (f: ReceiverForm) => void;
  error: { field: ReceiverField; message: string } | null;
  refFor: (f: ReceiverField) => Ref<HTMLInputElement & HTMLSelectElement>;
  disabled: boolean;
}

export function ReceiverFields({ form, onChange, error, refFor, disabled }: ReceiverFieldsProps) {
  const err = (f: ReceiverField) => (error?.field === f ? error.message : null);
  const set = (patch: Partial<ReceiverForm>) => onChange({ ...form, ...patch });
  const upper = (v: string) => v.toUpperCase().replace(/\s+/g, '');
  const regimeOptions = regimesFor(form.foreign ? 'XEXX010101000' : form.rfc).map((r) => ({ value: r.code, label: `${r.code} — ${r.name}` }));
  return (
    <fieldset className="stack receiver" disabled={disabled}>
      <legend>Datos para tu factura</legend>
      <TextField label="RFC" value={form.rfc} onChange={(e) => set({ rfc: upper(e.target.value) })} maxLength={13} readOnly={form.foreign} autoCapitalize="characters" autoComplete="off" spellCheck={false} error={err('rfc')} inputRef={refFor('rfc')} />
      <TextField label="Confirma tu RFC" value={form.rfcConfirm} onChange={(e) => set({ rfcConfirm: upper(e.target.value) })} maxLength={13} readOnly={form.foreign} autoCapitalize="characters" autoComplete="off" spellCheck={false} error={err('rfcConfirm')} inputRef={refFor('rfcConfirm')} />
      <Checkbox label="Soy extranjero" checked={form.foreign} onChange={(e) => onChange(setForeign(form, e.target.checked))} />
      {form.foreign && (
        <>
          <Select label="Residencia fiscal" options={COUNTRY_OPTIONS} placeholder="- Selecciona un país -" value={form.residenciaFiscal ?? ''} onChange={(e) => set({ residenciaFiscal: e.target.value })} error={err('residenciaFiscal')} selectRef={refFor('residenciaFiscal')} />
          <TextField label="Número de registro de identidad fiscal (NumRegIdTrib)" value={form.numRegIdTrib ?? ''} onChange={(e) => set({ numRegIdTrib: e.target.value.toUpperCase() })} maxLength={40} autoComplete="off" error={err('numRegIdTrib')} inputRef={refFor('numRegIdTrib')} />
        </>
      )}
      <TextField label="Nombre o razón social" value={form.nombre} onChange={(e) => set({ nombre: e.target.value.toUpperCase() })} maxLength={255} autoComplete="name" hint="Tal como aparece en tu constancia de situación fiscal." error={err('nombre')} inputRef={refFor('nombre')} />
      <TextField label="Código postal" value={form.postalCode} onChange={(e) => set({ postalCode: e.target.value.replace(/\D/g, '').slice(0, 5) })} inputMode="numeric" maxLength={5} autoComplete="postal-code" hint="El de tu domicilio fiscal." error={err('postalCode')} inputRef={refFor('postalCode')} />
      <Select label="Régimen fiscal" options={regimeOptions} placeholder="- Selecciona tu régimen -" value={form.regime} onChange={(e) => set({ regime: e.target.value })} error={err('regime')} selectRef={refFor('regime')} />
      <Select label="Uso del CFDI" options={USO_OPTIONS} placeholder="- Selecciona el uso -" value={form.uso} onChange={(e) => set({ uso: e.target.value })} error={err('uso')} selectRef={refFor('uso')} />
      <TextField label="Correo electrónico" type="email" value={form.email} onChange={(e) => set({ email: e.target.value })} autoComplete="email" hint="Ahí te enviaremos la factura (PDF y XML)." error={err('email')} inputRef={refFor('email')} />
    </fieldset>
  );
}
