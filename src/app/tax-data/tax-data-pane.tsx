// The tax-data pane (spec §2 Register and Add client): tabs EMPRESA / PERSONA / EXTRANJERO and the
// optional CFDI upload that fills it in. Controlled: the parent keeps the draft, so nothing typed is lost.
import { useId, useState, type ChangeEvent } from 'react';
import { COUNTRIES, countryName, MEXICO } from '../../domain/countries';
import { NAME_MAX } from '../../domain/registration';
import { RFC_COMPANY_LENGTH, RFC_FOREIGN, RFC_PERSON_LENGTH, type PersonType } from '../../domain/rfc';
import { Select, TextField } from '../ui/fields';
import { Icon } from '../ui/icon';
import { TabPanel, Tabs } from '../ui/tabs';
import { toast } from '../ui/toast-store';
import { CfdiTaxFields, regimeOptions } from './cfdi-tax-fields';
import { checkCfdiFile, checkCfdiText, CFDI_MSG, draftFromReceptor, readReceptor } from './cfdi-receptor';
import type { TaxDraft, TaxField } from './tax-draft';
import '../ui/button.css';
import './tax-data-pane.css';

const TABS: readonly { id: PersonType; label: string }[] = [
  { id: 'empresa', label: 'EMPRESA' },
  { id: 'persona', label: 'PERSONA' },
  { id: 'extranjero', label: 'EXTRANJERO' },
];

const COUNTRY_OPTIONS = COUNTRIES.map((c) => ({ value: c.code, label: c.name }));

export type TaxFieldRefs = Partial<Record<TaxField, HTMLInputElement | HTMLSelectElement | null>>;

/** What each tab's fields reach: the draft, a change, a field's message and its ref. */
interface TabFields {
  value: TaxDraft;
  set: (change: Partial<TaxDraft>) => void;
  err: (f: TaxField) => string | null;
  reg: (f: TaxField) => (el: HTMLInputElement | HTMLSelectElement | null) => void;
}

/** Reads an uploaded CFDI's Receptor into the draft; the message says what happened. */
async function draftFromFile(file: File, current: TaxDraft): Promise<{ draft: TaxDraft } | { error: string }> {
  const bad = checkCfdiFile(file);
  if (bad) return { error: bad };
  let text: string;
  try {
    text = await file.text();
  } catch {
    return { error: CFDI_MSG.unsafe };
  }
  const unsafe = checkCfdiText(text);
  if (unsafe) return { error: unsafe };
  const receptor = readReceptor(new DOMParser().parseFromString(text, 'application/xml'));
  if (!receptor) return { error: CFDI_MSG.noReceptor };
  return draftFromReceptor(receptor, current);
}

function CfdiUpload({ prefix, value, onChange }: { prefix: string; value: TaxDraft; onChange: (d: TaxDraft) => void }) {
  const [fileState, setFileState] = useState<{ kind: 'ok' | 'error'; message: string } | null>(null);

  async function onFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = ''; // the same file can be chosen again after a fix
    if (!file) return;
    const result = await draftFromFile(file, value);
    if ('error' in result) {
      setFileState({ kind: 'error', message: result.error });
      toast.error(result.error);
      return;
    }
    onChange(result.draft);
    setFileState({ kind: 'ok', message: `Listo, tomamos los datos de ${file.name}. Revísalos antes de continuar.` });
  }

  return (
    <div className="tax-pane__upload">
      <input id={`${prefix}-file`} type="file" accept=".xml" className="visually-hidden" onChange={(e) => void onFile(e)} />
      <label htmlFor={`${prefix}-file`} className="btn btn--secondary">
        <Icon name="upload" />
        Subir factura XML
      </label>
      <p className="field__hint">Opcional: sube el XML de una factura que te hayan emitido y llenamos tus datos. Solo .xml, hasta 1 MB.</p>
      {fileState && (
        <p className={fileState.kind === 'ok' ? 'tax-pane__file-ok' : 'field__error'} role={fileState.kind === 'error' ? 'alert' : 'status'}>
          {fileState.message}
        </p>
      )}
    </div>
  );
}

function RfcField({ value, set, err, reg, length, example }: TabFields & { length: number; example: string }) {
  return (
    <TextField
      label="RFC"
      value={value.rfc}
      onChange={(e) => set({ rfc: e.target.value.toUpperCase().replace(/\s+/g, '') })}
      maxLength={length}
      autoCapitalize="characters"
      autoComplete="off"
      spellCheck={false}
      hint={`${length} caracteres, por ejemplo ${example}`}
      error={err('rfc')}
      inputRef={reg('rfc')}
    />
  );
}

function EmpresaFields(f: TabFields) {
  return (
    <>
      <RfcField {...f} length={RFC_COMPANY_LENGTH} example="ABC010203XY1" />
      <TextField label="Razón Social" value={f.value.name} onChange={(e) => f.set({ name: e.target.value })} maxLength={NAME_MAX} autoComplete="organization" error={f.err('name')} inputRef={f.reg('name')} />
    </>
  );
}

function PersonaFields(f: TabFields) {
  return (
    <>
      <RfcField {...f} length={RFC_PERSON_LENGTH} example="ABCD010203XY1" />
      <TextField label="Nombre" value={f.value.firstName} onChange={(e) => f.set({ firstName: e.target.value })} maxLength={NAME_MAX} autoComplete="given-name" error={f.err('firstName')} inputRef={f.reg('firstName')} />
      <TextField label="Apellidos" value={f.value.lastName} onChange={(e) => f.set({ lastName: e.target.value })} maxLength={NAME_MAX} autoComplete="family-name" error={f.err('lastName')} inputRef={f.reg('lastName')} />
    </>
  );
}

function ExtranjeroFields({ value, set, err, reg }: TabFields) {
  return (
    <>
      <TextField label="RFC" value={RFC_FOREIGN} readOnly hint="RFC genérico para residentes en el extranjero" />
      <TextField label="Razón Social" value={value.name} onChange={(e) => set({ name: e.target.value })} maxLength={NAME_MAX} autoComplete="organization" error={err('name')} inputRef={reg('name')} />
      <TextField label="Registro de identidad fiscal" value={value.taxId} onChange={(e) => set({ taxId: e.target.value })} maxLength={40} autoComplete="off" error={err('taxId')} inputRef={reg('taxId')} />
      <Select
        label="País"
        value={value.country}
        onChange={(e) => set({ country: e.target.value })}
        options={COUNTRY_OPTIONS}
        placeholder="- Selecciona un país -"
        error={err('country')}
        selectRef={reg('country')}
      />
    </>
  );
}

function MexicanCfdiFields({ value, set, err, reg }: TabFields) {
  return (
    <>
      <CfdiTaxFields
        type={value.type}
        rfc={value.rfc}
        postalCode={value.postalCode}
        taxRegime={value.taxRegime}
        onChange={set}
        errors={{ postalCode: err('postalCode'), taxRegime: err('taxRegime') }}
        postalRef={reg('postalCode')}
        regimeRef={reg('taxRegime')}
      />
      <TextField label="País" value={countryName(MEXICO) ?? 'México'} readOnly />
    </>
  );
}

export function TaxDataPane({
  value,
  onChange,
  error,
  fieldRefs,
}: {
  value: TaxDraft;
  onChange: (d: TaxDraft) => void;
  error: { field: TaxField; message: string } | null;
  /** Filled with the inputs so the parent can focus the field a check points at. */
  fieldRefs: React.RefObject<TaxFieldRefs>;
}) {
  const prefix = `tax${useId().replace(/:/g, '')}`;
  const set = (change: Partial<TaxDraft>) => onChange({ ...value, ...change });
  const fields: TabFields = {
    value,
    set,
    err: (f) => (error?.field === f ? error.message : null),
    reg: (f) => (el) => {
      if (fieldRefs.current) fieldRefs.current[f] = el;
    },
  };
  // A régimen chosen on one tab is kept on another only when that tab's list has it.
  const switchTab = (type: PersonType) =>
    set({ type, taxRegime: regimeOptions(type, '').some((o) => o.value === value.taxRegime) ? value.taxRegime : '' });

  return (
    <div className="tax-pane">
      <CfdiUpload prefix={prefix} value={value} onChange={onChange} />
      <Tabs label="Tipo de contribuyente" items={TABS} value={value.type} onChange={switchTab} idPrefix={prefix} />
      <TabPanel idPrefix={prefix} id={value.type}>
        <div className="stack">
          {value.type === 'empresa' && <EmpresaFields {...fields} />}
          {value.type === 'persona' && <PersonaFields {...fields} />}
          {value.type === 'extranjero' && <ExtranjeroFields {...fields} />}
          {value.type !== 'extranjero' && <MexicanCfdiFields {...fields} />}
        </div>
      </TabPanel>
    </div>
  );
}
