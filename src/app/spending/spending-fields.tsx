// The spending panel's fields (spec §2 Agregar gasto / ingreso): amount, date, category, currency, the
// amount in pesos for a foreign currency (with the exchange rate's hint), note and attachment.
import { CURRENCIES, NATIONAL_CURRENCY } from '../../domain/currency';
import type { SpendingField } from '../../domain/spending-form';
import { DateField } from '../ui/date-field';
import { FileField } from '../ui/file-field';
import { Select, TextField, type SelectOption } from '../ui/fields';
import { TextArea } from '../ui/text-area';
import { Button } from '../ui/button';
import { lastRateText, rateHint, type PanelField, type PanelState } from './spending-state';

const CURRENCY_OPTIONS = CURRENCIES.map((c) => ({ value: c, label: c }));

/**
 * No rate known for the date: the rate, typed or implied by the pesos, and the last one this user used
 * for that currency, offered as such.
 */
function TypedRate({ state, onRate }: { state: PanelState; onRate: (value: string) => void }) {
  const last = state.lastRate;
  const currency = state.form.currency;
  return (
    <div className="spending-rate">
      <TextField
        label={`Tipo de cambio (MXN por 1 ${currency})`}
        type="number"
        inputMode="decimal"
        min={0}
        step={0.01}
        value={state.rateInput}
        onChange={(e) => onRate(e.target.value)}
        hint={rateHint(state.rate) ?? undefined}
      />
      {last && (
        <p className="spending-rate__last">
          <span>{lastRateText(last)}</span>
          {last.rate !== state.rateInput && (
            <Button variant="ghost" className="btn--small" onClick={() => onRate(last.rate)} aria-label={`Usar el último tipo de cambio que usaste: ${last.rate}`}>
              Usar {last.rate}
            </Button>
          )}
        </p>
      )}
    </div>
  );
}

export function SpendingFields({ state, categoryOptions, onField: setField, onRate, bind, onFile }: {
  state: PanelState;
  categoryOptions: readonly SelectOption[];
  onField: (field: SpendingField) => (value: string) => void;
  onRate: (value: string) => void;
  /** Registers a field's element, so a problem can focus it. */
  bind: (field: PanelField) => (el: HTMLElement | null) => void;
  onFile: (file: File | null) => void;
}) {
  const form = state.form;
  const foreign = form.currency !== NATIONAL_CURRENCY;
  return (
    <>
      <TextField
        label="Monto"
        type="number"
        inputMode="decimal"
        min={0}
        step={0.01}
        value={form.amount}
        onChange={(e) => setField('amount')(e.target.value)}
        error={state.errors.amount}
        inputRef={bind('amount')}
        data-autofocus
      />
      <DateField label="Fecha" value={form.date} onChange={setField('date')} error={state.errors.date} inputRef={bind('date')} />
      <Select
        label="Categoría"
        placeholder="Elige una categoría"
        options={categoryOptions}
        value={form.category}
        onChange={(e) => setField('category')(e.target.value)}
        error={state.errors.category}
        selectRef={bind('category')}
      />
      <Select
        label="Moneda"
        options={CURRENCY_OPTIONS}
        value={form.currency}
        onChange={(e) => setField('currency')(e.target.value)}
        error={state.errors.currency}
        selectRef={bind('currency')}
      />
      {foreign && state.rate.status === 'unknown' && <TypedRate state={state} onRate={onRate} />}
      {foreign && (
        <TextField
          label="Monto en moneda nacional"
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          value={form.nationalAmount}
          onChange={(e) => setField('nationalAmount')(e.target.value)}
          error={state.errors.nationalAmount}
          hint={(state.rate.status === 'unknown' ? null : rateHint(state.rate)) ?? 'El monto en pesos mexicanos (MXN).'}
          inputRef={bind('nationalAmount')}
        />
      )}
      <TextArea
        label="Nota"
        value={form.note}
        maxLength={500}
        onChange={(e) => setField('note')(e.target.value)}
        error={state.errors.note}
        textareaRef={bind('note')}
      />
      <FileField
        label="Adjunto"
        accept=".png,.jpg,.jpeg,.pdf,image/png,image/jpeg,application/pdf"
        fileName={state.attachment?.name ?? null}
        hint="png, jpg, jpeg o pdf de hasta 2 MB."
        error={state.errors.attachment}
        inputRef={bind('attachment')}
        onFile={onFile}
      />
    </>
  );
}
