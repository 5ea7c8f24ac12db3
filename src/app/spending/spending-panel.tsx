// The new spending / income off-canvas panel (spec §2, §5, §9). The reducer in spending-state.ts
// holds the rules; this renders it, fetches the rate and saves through the offline actions.
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useReducer, useRef, type FormEvent } from 'react';
import { EXPENSE_CATEGORIES, INCOME_CATEGORIES } from '../../domain/categories';
import { CURRENCIES, NATIONAL_CURRENCY } from '../../domain/currency';
import { MSG } from '../../domain/messages';
import type { EntryKind, SpendingField } from '../../domain/spending-form';
import { db, type CategoryRow } from '../../offline/db';
import { createManualTicket } from '../../offline/operations/ticket-create';
import { StorageFullError } from '../../offline/outbox';
import { Button } from '../ui/button';
import { DateField } from '../ui/date-field';
import { FileField } from '../ui/file-field';
import { Select, TextField } from '../ui/fields';
import { OffCanvas } from '../ui/overlay';
import { TextArea } from '../ui/text-area';
import { toast } from '../ui/toast-store';
import { useFieldRefs } from '../ui/use-field-problem';
import { useScreenToasts } from '../ui/use-screen-toasts';
import { fetchRate } from './exchange-rate';
import { checkAttachment, initialPanel, firstProblem, PANEL_TITLES, panelReducer, rateHint, rateKey, savedMessage } from './spending-state';
import './spending.css';

export interface SpendingPanelProps {
  /** Which entry is being added; null when closed. */
  kind: EntryKind | null;
  onClose: () => void;
  rfc: string;
  username: string;
}

const CURRENCY_OPTIONS = CURRENCIES.map((c) => ({ value: c, label: c }));

function useCategories(): { expense: CategoryRow[]; income: { id: number; name: string }[] } {
  const expense = useLiveQuery(() => db.categories.orderBy('id').toArray(), []);
  const income = useLiveQuery(() => db.incomeCategories.orderBy('id').toArray(), []);
  // Until the server's lists arrive (first start offline), the seeded ones of the domain serve.
  return {
    expense: expense && expense.length > 0 ? expense : [...EXPENSE_CATEGORIES],
    income: (income && income.length > 0 ? income : INCOME_CATEGORIES).map((c) => ({ id: c.id, name: c.income_meta_tag })),
  };
}

export function SpendingPanel({ kind, onClose, rfc, username }: SpendingPanelProps) {
  const [state, dispatch] = useReducer(panelReducer, undefined, () => initialPanel());
  const categories = useCategories();
  const screenToasts = useScreenToasts();
  const fileRef = useRef<File | null>(null);
  const { reg: bind, focus, element } = useFieldRefs<SpendingField | 'attachment', HTMLElement>();

  useEffect(() => {
    if (kind) dispatch({ type: 'open', kind });
  }, [kind]);

  const key = rateKey(state.form);
  useEffect(() => {
    if (!state.open || key === '') return;
    const [base, date] = key.split('|') as [string, string];
    const ctrl = new AbortController();
    dispatch({ type: 'rate-loading', key });
    fetchRate(base, date, ctrl.signal).then(
      (r) => dispatch(r ? { type: 'rate-known', key, rate: r.rate, source: r.source } : { type: 'rate-unknown', key }),
      () => undefined, // aborted: a newer request took over
    );
    return () => ctrl.abort();
  }, [state.open, key]);

  function close() {
    fileRef.current = null;
    screenToasts.dismissAll();
    dispatch({ type: 'close' });
    onClose();
  }

  const form = state.form;
  const isExpense = form.kind === 'expense';
  const categoryOptions = isExpense
    ? categories.expense.map((c) => ({ value: String(c.id), label: c.meta_tag }))
    : categories.income.map((c) => ({ value: String(c.id), label: c.name }));
  const categoryIds = categoryOptions.map((o) => Number(o.value));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (state.saving) return;
    const problem = firstProblem(state, categoryIds);
    if (problem) {
      dispatch({ type: 'problem', problem });
      screenToasts.error(problem.message);
      focus(problem.field);
      return;
    }
    if (state.errors.attachment) {
      screenToasts.error(state.errors.attachment);
      focus('attachment');
      return;
    }
    dispatch({ type: 'saving' });
    try {
      const file = fileRef.current;
      const attachment = file && state.attachment ? { bytes: await file.arrayBuffer(), type: file.type, name: file.name } : undefined;
      await createManualTicket(db, form, { rfc, username, categories: categories.expense }, attachment);
      screenToasts.dismissAll();
      toast.success(savedMessage(form.kind, navigator.onLine));
      fileRef.current = null;
      dispatch({ type: 'saved' });
      onClose();
    } catch (err) {
      const message = err instanceof StorageFullError || err instanceof Error ? err.message : MSG.generic;
      dispatch({ type: 'save-failed', message });
      screenToasts.error(message);
    }
  }

  const setField = (field: SpendingField) => (value: string) => {
    // The problem being fixed: its toast goes with its inline message.
    if (state.errors[field]) screenToasts.dismissAll();
    dispatch({ type: 'field', field, value });
  };
  const foreign = form.currency !== NATIONAL_CURRENCY;
  const formId = 'spending-form';

  return (
    <OffCanvas
      open={state.open}
      onClose={close}
      title={PANEL_TITLES[form.kind]}
      footer={
        <Button variant="primary" type="submit" form={formId} loading={state.saving} block>
          Guardar
        </Button>
      }
    >
      <form id={formId} className="spending-form" noValidate onSubmit={(e) => void onSubmit(e)}>
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
            hint={rateHint(state.rate) ?? 'El monto en pesos mexicanos (MXN).'}
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
          onFile={(file) => {
            const info = file ? { name: file.name, type: file.type, size: file.size } : null;
            const problem = info ? checkAttachment(info) : null;
            fileRef.current = problem ? null : file;
            dispatch({ type: 'attachment', file: info });
            if (problem) screenToasts.error(problem);
            // Let the same file be chosen again after a rejection or removal.
            const input = element('attachment');
            if ((problem || !file) && input) (input as HTMLInputElement).value = '';
          }}
        />
      </form>
    </OffCanvas>
  );
}
