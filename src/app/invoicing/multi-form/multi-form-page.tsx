// Multi-ticket form (ticket/form-multi/{name}, spec §2/§4): 'Agregar Ticket a Factura Múltiple' verifies
// each ticket and adds it to the list; 'Solicitar factura' → note dialog → one invoice for all of them.
import { useParams } from '@tanstack/react-router';
import { useMemo, useState, type FormEvent } from 'react';
import type { Account } from '../../../domain/account';
import { displayDate } from '../../../domain/dates';
import { newId } from '../../../domain/ids';
import type { FormFieldDefinition } from '../../../domain/merchant-fields';
import { merchantByShortName, type MerchantEntry } from '../../../domain/merchants';
import { MSG } from '../../../domain/messages';
import { formatMoney } from '../../../domain/money';
import { ApiError } from '../../../offline/http';
import { createMultiTicket, verifyTicket } from '../../api/invoicing';
import { useLayout } from '../../layout/layout-context';
import { Button } from '../../ui/button';
import { toast } from '../../ui/toast-store';
import { useScreenToasts } from '../../ui/use-screen-toasts';
import { useOnline } from '../../use-online';
import { DynamicFields } from '../fields/dynamic-fields';
import { useFieldForm } from '../fields/use-field-form';
import { FieldsLoading } from '../form-parts/fields-loading';
import { MerchantHeader } from '../form-parts/merchant-header';
import { NoteDialog } from '../form-parts/note-dialog';
import { TaxDataNotice } from '../form-parts/tax-data-notice';
import { UnknownMerchant } from '../form-parts/unknown-merchant';
import { useFormFields } from '../form-parts/use-form-fields';
import { dexieFieldsCache } from '../ticket-form/ticket-form-page';
import { DEFAULT_USO_CFDI } from '../../../offline/operations/ticket-create';
import { addEntry, checkList, listTotal, removeEntry, type MultiEntry } from './multi-list';
import '../invoice.css';

export function MultiFormPage() {
  const { name } = useParams({ strict: false }) as { name?: string };
  const merchant = name ? merchantByShortName(name) : undefined;
  if (!merchant || !merchant.multi) return <UnknownMerchant />;
  return <MultiForm key={merchant.short_name} merchant={merchant} />;
}

type Busy = 'add' | 'send' | null;

/** Verifies a ticket and adds it to the list; an invoiced one or a refused addition (multi-list.ts) is an error. */
async function verifiedEntry(merchantId: number, values: MultiEntry['values'], list: MultiEntry[]) {
  const ticket = await verifyTicket(merchantId, values, 'multi');
  if (ticket.invoiced) throw new ApiError(MSG.ticketAlreadyInvoiced, 409);
  return addEntry(list, { values, ticket });
}

/** One invoice for every ticket of the list, with the note of the dialog. */
const requestMulti = (rfc: string, merchantId: number, list: MultiEntry[], note: string) =>
  createMultiTicket({
    usuario: { rfc },
    company: { id: merchantId },
    tickets: list.map((e) => e.values),
    additional_info: { note, uso_cfdi: DEFAULT_USO_CFDI, ticket_id: newId() },
  });

/** The merchant's fields and 'Agregar Ticket a Factura Múltiple'. */
function AddTicketForm({ fields, form, state, reload, busy, onAdd }: {
  fields: readonly FormFieldDefinition[];
  form: ReturnType<typeof useFieldForm>;
  state: ReturnType<typeof useFormFields>['state'];
  reload: () => void;
  busy: Busy;
  onAdd: (e: FormEvent) => void;
}) {
  return (
    <form className="card stack" onSubmit={onAdd} noValidate aria-busy={busy !== null || undefined}>
      {state.status === 'ready' ? (
        <DynamicFields fields={fields} values={form.values} onChange={form.onChange} error={form.error} registerRef={form.registerRef} disabled={busy !== null} />
      ) : (
        <FieldsLoading state={state} onRetry={reload} />
      )}
      <div className="form-actions">
        <Button type="submit" loading={busy === 'add'} disabled={state.status !== 'ready' || busy !== null}>
          Agregar Ticket a Factura Múltiple
        </Button>
      </div>
    </form>
  );
}

/** The tickets added so far, their total, and 'Solicitar factura'. */
function MultiList({ list, busy, onRemove, onRequest }: { list: MultiEntry[]; busy: Busy; onRemove: (ref: string) => void; onRequest: () => void }) {
  return (
    <section className="card stack" aria-labelledby="multi-list-title">
      <h2 id="multi-list-title">Tickets en la factura ({list.length})</h2>
      {list.length === 0 ? (
        <p className="muted">Aún no agregas tickets. Escribe los datos de uno y presiona “Agregar Ticket a Factura Múltiple”.</p>
      ) : (
        <ul className="multi-list">
          {list.map((e) => (
            <li key={e.ticket.ref} className="multi-list__item">
              <span>
                <strong className="tabular">{e.ticket.ticket_number}</strong>
                <span className="muted"> · {displayDate(e.ticket.issued_at)}</span>
              </span>
              <span className="tabular">{formatMoney(e.ticket.total)}</span>
              <Button variant="ghost" onClick={() => onRemove(e.ticket.ref)} disabled={busy !== null} aria-label={`Quitar el ticket ${e.ticket.ticket_number}`}>
                Quitar
              </Button>
            </li>
          ))}
        </ul>
      )}
      {list.length > 0 && (
        <p className="multi-list__total">
          Total: <strong className="tabular">{formatMoney(listTotal(list))}</strong>
        </p>
      )}
      <div className="form-actions">
        <Button variant="primary" onClick={onRequest} loading={busy === 'send'} disabled={busy !== null}>
          Solicitar factura
        </Button>
      </div>
    </section>
  );
}

/** Above the form: missing tax data, offline, and the last problem. */
function MultiNotices({ account, online, problem }: { account: Account; online: boolean; problem: string | null }) {
  return (
    <>
      <TaxDataNotice account={account} />
      {!online && (
        <div className="notice notice--warning" role="status">
          <p>Sin conexión — conéctate para agregar tickets y solicitar la factura.</p>
        </div>
      )}
      {problem && (
        <div className="notice notice--error" role="alert">
          <p>{problem}</p>
        </div>
      )}
    </>
  );
}

function MultiForm({ merchant }: { merchant: MerchantEntry }) {
  const { selected } = useLayout();
  const online = useOnline();
  const { state, reload } = useFormFields(merchant.id, dexieFieldsCache);
  const fields = useMemo(() => (state.status === 'ready' ? state.fields : []), [state]);
  const form = useFieldForm(fields);
  const [list, setList] = useState<MultiEntry[]>([]);
  const [busy, setBusy] = useState<Busy>(null);
  const [noteOpen, setNoteOpen] = useState(false);
  // Error toasts belong to this screen: a new one replaces the last, and they close when it goes away.
  const notes = useScreenToasts();
  const [problem, setProblem] = useState<string | null>(null);

  function showProblem(message: string) {
    setProblem(message);
    notes.error(message);
  }

  async function onAdd(e: FormEvent) {
    e.preventDefault();
    setProblem(null);
    const values = form.validate();
    if (!values) return;
    setBusy('add');
    try {
      const next = await verifiedEntry(merchant.id, values, list);
      if ('error' in next) {
        form.showTicketError(next.error);
        showProblem(next.error);
        return;
      }
      setList(next.list);
      form.clear();
      notes.dismissAll();
      toast.success(MSG.ticketAddedToList);
    } catch (err) {
      const message = err instanceof ApiError ? err.message : MSG.generic;
      showProblem(message);
      if (err instanceof ApiError && (err.status === 404 || err.status === 422)) form.showTicketError(message);
    } finally {
      setBusy(null);
    }
  }

  function onRequest() {
    setProblem(null);
    const bad = checkList(list);
    if (bad) return showProblem(bad);
    setNoteOpen(true);
  }

  async function facturar(note: string) {
    setNoteOpen(false);
    if (!selected) return;
    setBusy('send');
    try {
      await requestMulti(selected.rfc, merchant.id, list, note);
      notes.dismissAll();
      toast.info(MSG.invoiceRequested, MSG.invoiceRequestedTitle);
      setList([]);
      form.clear();
    } catch (err) {
      showProblem(err instanceof ApiError ? err.message : MSG.generic);
    } finally {
      setBusy(null);
    }
  }

  return (
    <main id="main" className="page page--form invoice-page">
      <MerchantHeader merchant={merchant} subtitle="Junta varios tickets en una sola factura." />
      {!selected ? (
        <div className="notice notice--info" role="alert">
          <p>Cargando...</p>
        </div>
      ) : (
        <>
          <MultiNotices account={selected} online={online} problem={problem} />
          <AddTicketForm fields={fields} form={form} state={state} reload={reload} busy={busy} onAdd={onAdd} />
          <MultiList list={list} busy={busy} onRemove={(ref) => setList(removeEntry(list, ref))} onRequest={onRequest} />
        </>
      )}
      <NoteDialog open={noteOpen} rfc={selected?.rfc ?? ''} onCancel={() => setNoteOpen(false)} onConfirm={(n) => void facturar(n)} />
    </main>
  );
}
