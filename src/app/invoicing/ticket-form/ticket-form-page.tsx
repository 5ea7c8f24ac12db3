// Ticket form (spec §2 'Merchant ticket forms', §4 'Ticket form'): the merchant's fields, 'Consulta de
// facturas' and 'Solicitar factura' → note dialog → Facturar → loading → the request through the outbox
// → 'Factura solicitada' and the inputs cleared, or the server's message at the form.
import { useNavigate, useParams } from '@tanstack/react-router';
import { useMemo, useState, type FormEvent } from 'react';
import type { FieldValue } from '../../../domain/merchant-fields';
import { merchantByShortName, type MerchantEntry } from '../../../domain/merchants';
import { MSG } from '../../../domain/messages';
import { db } from '../../../offline/db';
import { storeFormFields, storedFormFields } from '../../../offline/form-fields';
import { StorageFullError } from '../../../offline/outbox';
import { getSession } from '../../../offline/session';
import { ApiError } from '../../../offline/http';
import { verifyTicket, type VerifiedTicket } from '../../api/invoicing';
import { useLayout } from '../../layout/layout-context';
import { TXT } from '../../strings';
import { Button } from '../../ui/button';
import { toast } from '../../ui/toast-store';
import { useScreenToasts } from '../../ui/use-screen-toasts';
import { DynamicFields } from '../fields/dynamic-fields';
import { useFieldForm } from '../fields/use-field-form';
import { FieldsLoading } from '../form-parts/fields-loading';
import { MerchantHeader } from '../form-parts/merchant-header';
import { NoteDialog } from '../form-parts/note-dialog';
import { TaxDataNotice } from '../form-parts/tax-data-notice';
import { UnknownMerchant } from '../form-parts/unknown-merchant';
import { useFormFields, type FieldsCache } from '../form-parts/use-form-fields';
import { requestMerchantTicket } from '../../../offline/operations/ticket-create';
import { awaitOperation } from '../../../offline/outbox-control';
import '../invoice.css';

export const dexieFieldsCache: FieldsCache = {
  get: (id) => storedFormFields(db, id),
  put: (id, fields) => storeFormFields(db, id, fields),
};

export function TicketFormPage() {
  const { name } = useParams({ strict: false }) as { name?: string };
  const merchant = name ? merchantByShortName(name) : undefined;
  if (!merchant) return <UnknownMerchant />;
  return <TicketForm key={merchant.short_name} merchant={merchant} />;
}

/** Asks the server about the ticket first when it can: its refusal is immediate and nothing is queued. */
async function verifyIfOnline(merchant: MerchantEntry, values: FieldValue[]): Promise<VerifiedTicket | null> {
  try {
    return await verifyTicket(merchant.id, values, 'form');
  } catch (err) {
    if (err instanceof ApiError && (err.offline || err.status >= 500 || err.status === 429)) return null;
    throw err;
  }
}

function TicketForm({ merchant }: { merchant: MerchantEntry }) {
  const navigate = useNavigate();
  const { selected } = useLayout();
  const { state, reload } = useFormFields(merchant.id, dexieFieldsCache);
  const fields = useMemo(() => (state.status === 'ready' ? state.fields : []), [state]);
  const form = useFieldForm(fields);
  // Error toasts belong to this screen: a new one replaces the last, and they close when it goes away.
  const notes = useScreenToasts();
  const [pending, setPending] = useState<FieldValue[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setProblem(null);
    const values = form.validate();
    if (values) setPending(values);
  }

  async function facturar(note: string) {
    const values = pending;
    setPending(null);
    if (!values || !selected) return;
    setBusy(true);
    try {
      const verified = await verifyIfOnline(merchant, values);
      if (verified?.invoiced) throw new ApiError(MSG.ticketAlreadyInvoiced, 409);
      const { opId } = await requestMerchantTicket(db, {
        merchant, rfc: selected.rfc, username: getSession()?.username ?? '', values, note, verified,
      });
      const outcome = await awaitOperation(db, opId, { discardRefused: true });
      if (outcome.kind === 'refused') throw new ApiError(outcome.message || MSG.generic, 400);
      notes.dismissAll();
      if (outcome.kind === 'sent') toast.info(MSG.invoiceRequested, MSG.invoiceRequestedTitle);
      else toast.info(TXT.invoiceRequestQueued, MSG.invoiceRequestedTitle);
      form.clear();
    } catch (err) {
      const message = err instanceof StorageFullError ? err.message : err instanceof ApiError ? err.message : MSG.generic;
      setProblem(message);
      notes.error(message);
      if (err instanceof ApiError && (err.status === 404 || err.status === 422)) form.showTicketError(message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" className="page page--form invoice-page">
      <MerchantHeader merchant={merchant} subtitle="Escribe los datos de tu ticket tal como aparecen impresos." />
      {!selected ? (
        <div className="notice notice--info" role="alert">
          <p>Cargando...</p>
        </div>
      ) : (
        <form className="card stack" onSubmit={onSubmit} noValidate aria-busy={busy || undefined}>
          <TaxDataNotice account={selected} />
          {problem && (
            <div className="notice notice--error" role="alert">
              <p>{problem}</p>
            </div>
          )}
          {state.status === 'ready' ? (
            <DynamicFields fields={fields} values={form.values} onChange={form.onChange} error={form.error} registerRef={form.registerRef} disabled={busy} />
          ) : (
            <FieldsLoading state={state} onRetry={reload} />
          )}
          <div className="form-actions">
            <Button onClick={() => void navigate({ to: '/' })} disabled={busy}>
              Consulta de facturas
            </Button>
            <Button type="submit" variant="primary" loading={busy} disabled={state.status !== 'ready'}>
              Solicitar factura
            </Button>
          </div>
        </form>
      )}
      <NoteDialog open={pending !== null} rfc={selected?.rfc ?? ''} onCancel={() => setPending(null)} onConfirm={(n) => void facturar(n)} />
    </main>
  );
}
