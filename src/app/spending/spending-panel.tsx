// The new spending / income off-canvas panel (spec §2, §5, §9). The reducer in spending-state.ts
// holds the rules; this renders it, fetches the rate and saves through the offline actions.
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useReducer, useRef, type FormEvent } from 'react';
import { EXPENSE_CATEGORIES, INCOME_CATEGORIES } from '../../domain/categories';
import { NATIONAL_CURRENCY } from '../../domain/currency';
import { MSG } from '../../domain/messages';
import type { EntryKind, SpendingField } from '../../domain/spending-form';
import { db, type CategoryRow } from '../../offline/db';
import { createManualTicket } from '../../offline/operations/ticket-create';
import { StorageFullError } from '../../offline/outbox';
import { Button } from '../ui/button';
import { OffCanvas } from '../ui/overlay';
import { toast } from '../ui/toast-store';
import { useFieldRefs } from '../ui/use-field-problem';
import { useScreenToasts } from '../ui/use-screen-toasts';
import { fetchRate } from './exchange-rate';
import { loadLastRate } from './last-rate';
import { SpendingFields } from './spending-fields';
import { checkAttachment, initialPanel, firstProblem, PANEL_TITLES, panelReducer, rateKey, savedMessage, type PanelAction, type PanelState } from './spending-state';
import './spending.css';

export interface SpendingPanelProps {
  /** Which entry is being added; null when closed. */
  kind: EntryKind | null;
  onClose: () => void;
  rfc: string;
  username: string;
}

type Categories = { expense: CategoryRow[]; income: { id: number; name: string }[] };

/** The category picker's options: expense categories by their tag, income ones by name. */
function categoryOptionsOf(kind: EntryKind, categories: Categories) {
  return kind === 'expense'
    ? categories.expense.map((c) => ({ value: String(c.id), label: c.meta_tag }))
    : categories.income.map((c) => ({ value: String(c.id), label: c.name }));
}

function useCategories(): Categories {
  const expense = useLiveQuery(() => db.categories.orderBy('id').toArray(), []);
  const income = useLiveQuery(() => db.incomeCategories.orderBy('id').toArray(), []);
  // Until the server's lists arrive (first start offline), the seeded ones of the domain serve.
  return {
    expense: expense && expense.length > 0 ? expense : [...EXPENSE_CATEGORIES],
    income: (income && income.length > 0 ? income : INCOME_CATEGORIES).map((c) => ({ id: c.id, name: c.income_meta_tag })),
  };
}

/** While open with a foreign currency and a date: asks the day's exchange rate (a newer question cancels the older). */
function useExchangeRate(state: PanelState, dispatch: (action: PanelAction) => void) {
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
  }, [state.open, key, dispatch]);
}

/** The last rate this user used for the chosen currency (their tickets on the device; works offline, follows pulls). */
function useLastRate(state: PanelState, dispatch: (action: PanelAction) => void) {
  const currency = state.form.currency;
  const wanted = state.open && currency !== NATIONAL_CURRENCY;
  const last = useLiveQuery(() => (wanted ? loadLastRate(db, currency) : null), [wanted, currency]);
  useEffect(() => {
    if (wanted && last !== undefined) dispatch({ type: 'last-rate', currency, last });
  }, [wanted, currency, last, dispatch]);
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

  useExchangeRate(state, dispatch);
  useLastRate(state, dispatch);

  function close() {
    fileRef.current = null;
    screenToasts.dismissAll();
    dispatch({ type: 'close' });
    onClose();
  }

  const form = state.form;
  const categoryOptions = categoryOptionsOf(form.kind, categories);
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
  function pickAttachment(file: File | null) {
    const info = file ? { name: file.name, type: file.type, size: file.size } : null;
    const problem = info ? checkAttachment(info) : null;
    fileRef.current = problem ? null : file;
    dispatch({ type: 'attachment', file: info });
    if (problem) screenToasts.error(problem);
    // Let the same file be chosen again after a rejection or removal.
    const input = element('attachment');
    if ((problem || !file) && input) (input as HTMLInputElement).value = '';
  }

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
        <SpendingFields
          state={state}
          categoryOptions={categoryOptions}
          onField={setField}
          onRate={(value) => dispatch({ type: 'rate-input', value })}
          bind={bind}
          onFile={pickAttachment}
        />
      </form>
    </OffCanvas>
  );
}
