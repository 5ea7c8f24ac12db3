// The tax-data pane (spec §2 Register and Add client): tabs EMPRESA / PERSONA / EXTRANJERO and the
// optional CFDI upload that fills it in. Controlled: the parent keeps the draft, so nothing typed is lost.
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { COUNTRIES, countryName, MEXICO } from '../../domain/countries';
import { NAME_MAX } from '../../domain/registration';
import { RFC_COMPANY_LENGTH, RFC_FOREIGN, RFC_PERSON_LENGTH, type PersonType } from '../../domain/rfc';
import { Select, TextField } from '../ui/fields';
import { Icon } from '../ui/icon';
import { TabPanel, Tabs } from '../ui/tabs';
import { toast } from '../ui/toast-store';
import { CfdiTaxFields } from './cfdi-tax-fields';
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
  const fileRef = useRef<HTMLInputElement>(null);
  const [fileState, setFileState] = useState<{ kind: 'ok' | 'error'; message: string } | null>(null);
  const err = (f: TaxField) => (error?.field === f ? error.message : null);
  const set = (change: Partial<TaxDraft>) => onChange({ ...value, ...change });
  const reg = (f: TaxField) => (el: HTMLInputElement | HTMLSelectElement | null) => {
    if (fieldRefs.current) fieldRefs.current[f] = el;
  };

  async function onFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = ''; // the same file can be chosen again after a fix
    if (!file) return;
    const fail = (message: string) => {
      setFileState({ kind: 'error', message });
      toast.error(message);
    };
    const bad = checkCfdiFile(file);
    if (bad) return fail(bad);
    let text: string;
    try {
      text = await file.text();
    } catch {
      return fail(CFDI_MSG.unsafe);
    }
    const unsafe = checkCfdiText(text);
    if (unsafe) return fail(unsafe);
    const doc = new DOMParser().parseFromString(text, 'application/xml');
    const receptor = readReceptor(doc);
    if (!receptor) return fail(CFDI_MSG.noReceptor);
    const result = draftFromReceptor(receptor, value);
    if ('error' in result) return fail(result.error);
    onChange(result.draft);
    setFileState({ kind: 'ok', message: `Listo, tomamos los datos de ${file.name}. Revísalos antes de continuar.` });
  }

  const upperRfc = (e: ChangeEvent<HTMLInputElement>) => set({ rfc: e.target.value.toUpperCase().replace(/\s+/g, '') });

  return (
    <div className="tax-pane">
      <div className="tax-pane__upload">
        <input ref={fileRef} id={`${prefix}-file`} type="file" accept=".xml" className="visually-hidden" onChange={(e) => void onFile(e)} />
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

      <Tabs label="Tipo de contribuyente" items={TABS} value={value.type} onChange={(type) => set({ type })} idPrefix={prefix} />
      <TabPanel idPrefix={prefix} id={value.type}>
        <div className="stack">
          {value.type === 'empresa' && (
            <>
              <TextField
                label="RFC"
                value={value.rfc}
                onChange={upperRfc}
                maxLength={RFC_COMPANY_LENGTH}
                autoCapitalize="characters"
                autoComplete="off"
                spellCheck={false}
                hint="12 caracteres, por ejemplo ABC010203XY1"
                error={err('rfc')}
                inputRef={reg('rfc')}
              />
              <TextField label="Razón Social" value={value.name} onChange={(e) => set({ name: e.target.value })} maxLength={NAME_MAX} autoComplete="organization" error={err('name')} inputRef={reg('name')} />
            </>
          )}
          {value.type === 'persona' && (
            <>
              <TextField
                label="RFC"
                value={value.rfc}
                onChange={upperRfc}
                maxLength={RFC_PERSON_LENGTH}
                autoCapitalize="characters"
                autoComplete="off"
                spellCheck={false}
                hint="13 caracteres, por ejemplo ABCD010203XY1"
                error={err('rfc')}
                inputRef={reg('rfc')}
              />
              <TextField label="Nombre" value={value.firstName} onChange={(e) => set({ firstName: e.target.value })} maxLength={NAME_MAX} autoComplete="given-name" error={err('firstName')} inputRef={reg('firstName')} />
              <TextField label="Apellidos" value={value.lastName} onChange={(e) => set({ lastName: e.target.value })} maxLength={NAME_MAX} autoComplete="family-name" error={err('lastName')} inputRef={reg('lastName')} />
            </>
          )}
          {value.type === 'extranjero' && (
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
          )}
          {value.type !== 'extranjero' && (
            <>
              <CfdiTaxFields
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
          )}
        </div>
      </TabPanel>
    </div>
  );
}
