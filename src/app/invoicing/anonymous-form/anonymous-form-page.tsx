// Anonymous ticket form (ticket/form-anonymous/{name}; the signed-out start screen for ANONYMOUS_MERCHANT):
// no account needed. Spec §2, §4 'Anonymous flow', §5 'SAT and anonymous form'.
import { useParams } from '@tanstack/react-router';
import { useMemo, useReducer, useRef, useState, type FormEvent, type RefObject } from 'react';
import { checkReceiver, normalizeReceiver, type ReceiverField, type ReceiverForm } from '../../../domain/invoicing';
import { shownInAnonymousForm } from '../../../domain/merchant-fields';
import { ANONYMOUS_MERCHANT, merchantByShortName, type MerchantEntry } from '../../../domain/merchants';
import { MSG } from '../../../domain/messages';
import { ApiError } from '../../../offline/http';
import { checkRfc, followInvoiceRequest, requestInvoice, resendInvoice, verifyTicket, type VerifiedTicket } from '../../api/invoicing';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/fields';
import { Modal } from '../../ui/overlay';
import { toast } from '../../ui/toast-store';
import { useScreenToasts } from '../../ui/use-screen-toasts';
import { DynamicFields } from '../fields/dynamic-fields';
import { useFieldForm } from '../fields/use-field-form';
import { FieldsLoading } from '../form-parts/fields-loading';
import { invoiceOutcome } from '../form-parts/invoice-outcome';
import { MerchantHeader } from '../form-parts/merchant-header';
import { TicketSummary } from '../form-parts/ticket-summary';
import { UnknownMerchant } from '../form-parts/unknown-merchant';
import { useFormFields } from '../form-parts/use-form-fields';
import { anonymousReducer, emptyReceiver, initialAnonymous, refacturaProof, revealForeignFirst } from './anonymous-flow';
import { PublicShell } from './public-shell';
import { ReprintAction } from './reprint-action';
import { ReceiverFields } from './receiver-fields';
import '../invoice.css';

export function AnonymousFormPage() {
  const { name } = useParams({ strict: false }) as { name?: string };
  const merchant = merchantByShortName(name ?? ANONYMOUS_MERCHANT);
  return (
    <PublicShell>
      {merchant?.anonymous ? <AnonymousForm key={merchant.short_name} merchant={merchant} /> : <UnknownMerchant home="/login" />}
    </PublicShell>
  );
}

/** What the invoice request says of an anonymous receiver (client 0: no account). */
function anonymousRequest(r: ReceiverForm) {
  return {
    client: 0,
    email: r.email,
    rfc: r.rfc,
    uso_cfdi: r.uso,
    nombre: r.nombre,
    regimen_fiscal_receptor: r.regime,
    codigo_postal: r.postalCode,
    ...(r.foreign ? { residencia_fiscal: r.residenciaFiscal ?? '', num_reg_id_trib: r.numRegIdTrib ?? '' } : {}),
  };
}

/** Refacturar asks for the ticket's check code: the ref and the form values alone are not proof enough. */
function RefacturaCheck({ value, onChange, error, inputRef, disabled }: {
  value: string;
  onChange: (code: string) => void;
  error: string | null;
  inputRef: RefObject<HTMLInputElement | null>;
  disabled: boolean;
}) {
  return (
    <>
      <div className="notice notice--info" role="status">
        <p>Refacturación: emitiremos una factura nueva con estos datos y sustituirá a la anterior.</p>
      </div>
      <TextField
        label={MSG.refacturaCheckLabel}
        hint={MSG.refacturaCheckHint}
        value={value}
        onChange={(e) => onChange(e.target.value.toUpperCase().replace(/\s+/g, ''))}
        maxLength={32}
        autoCapitalize="characters"
        autoComplete="off"
        spellCheck={false}
        error={error}
        inputRef={inputRef}
        disabled={disabled}
      />
    </>
  );
}

/** A ticket already invoiced: its PDF, 'Reenviar' to the same e-mail, or 'Refacturar' with other data. */
function InvoicedDialog({ invoiced, busy, onClose, onRefacturar, onResend }: {
  invoiced: VerifiedTicket | null;
  busy: boolean;
  onClose: () => void;
  onRefacturar: () => void;
  onResend: () => void;
}) {
  return (
    <Modal
      open={invoiced !== null}
      onClose={onClose}
      title={MSG.ticketAlreadyInvoiced}
      footer={
        invoiced?.invoice ? (
          <>
            <Button onClick={onRefacturar} disabled={busy}>
              Refacturar
            </Button>
            <Button onClick={onResend} loading={busy}>
              Reenviar
            </Button>
            <ReprintAction requestId={invoiced.invoice.request_id} />
          </>
        ) : undefined
      }
    >
      {invoiced && (
        <div className="stack">
          <TicketSummary ticket={invoiced} />
          {invoiced.invoice ? (
            <p>
              La factura se envió a <strong>{invoiced.invoice.email_masked}</strong>. Puedes abrir el PDF, reenviarla a ese correo o
              refacturar con otros datos.
            </p>
          ) : (
            <p>{MSG.invoiceInFlight}</p>
          )}
        </div>
      )}
    </Modal>
  );
}

/** The SAT's refusal of the receiver's RFC (not valid, not active), or null; other failures are thrown. */
async function rfcRefusal(rfc: string): Promise<string | null> {
  try {
    await checkRfc(rfc);
    return null;
  } catch (err) {
    if (err instanceof ApiError && err.status === 422) return err.message;
    throw err;
  }
}

/** Refacturar asks for the ticket's check code: the ref and the form values alone are not proof enough. */
function useCheckCode() {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLInputElement | null>(null);
  return {
    code,
    setCode,
    error,
    ref,
    /** Shows `message` at the field and moves the focus there (null: clears it). */
    show: (message: string | null) => {
      setError(message);
      if (message) requestAnimationFrame(() => ref.current?.focus());
    },
    reset: () => {
      setCode('');
      setError(null);
    },
  };
}

function AnonymousForm({ merchant }: { merchant: MerchantEntry }) {
  const { state, reload } = useFormFields(merchant.id);
  const fields = useMemo(() => (state.status === 'ready' ? state.fields.filter(shownInAnonymousForm) : []), [state]);
  const form = useFieldForm(fields);
  const [flow, dispatch] = useReducer(anonymousReducer, initialAnonymous);
  // Error toasts belong to this screen: a new one replaces the last, and they close when it goes away.
  const notes = useScreenToasts();
  const [receiver, setReceiver] = useState<ReceiverForm>(emptyReceiver);
  const [receiverError, setReceiverError] = useState<{ field: ReceiverField; message: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const check = useCheckCode();
  const refs = useRef<Partial<Record<ReceiverField, HTMLElement | null>>>({});
  const refFor = (f: ReceiverField) => (el: HTMLElement | null) => {
    refs.current[f] = el;
  };
  const focusReceiver = (field: ReceiverField, message: string | null) => {
    setReceiverError(message ? { field, message } : null);
    requestAnimationFrame(() => refs.current[field]?.focus());
  };

  function fail(err: unknown) {
    dispatch({ type: 'idle' });
    const message = err instanceof ApiError ? err.message : MSG.generic;
    setProblem(message);
    notes.error(message);
    return message;
  }

  async function onFacturar(e: FormEvent) {
    e.preventDefault();
    setProblem(null);
    const values = form.validate();
    if (!values) return;
    dispatch({ type: 'verify' });
    try {
      dispatch({ type: 'verified', ticket: await verifyTicket(merchant.id, values, 'anonymous'), values });
    } catch (err) {
      const message = fail(err);
      if (err instanceof ApiError && (err.status === 404 || err.status === 422)) form.showTicketError(message);
    }
  }

  async function onSend(e: FormEvent) {
    e.preventDefault();
    if (flow.stage !== 'receiver') return;
    setProblem(null);
    const reveal = revealForeignFirst(receiver);
    if (reveal) {
      setReceiver(reveal.form);
      focusReceiver(reveal.focus, null);
      return;
    }
    if (flow.refactura && !check.code.trim()) {
      check.show(MSG.refacturaProofRequired);
      notes.error(MSG.refacturaProofRequired);
      return;
    }
    check.show(null);
    const r = normalizeReceiver(receiver);
    const bad = checkReceiver(r);
    if (bad) {
      focusReceiver(bad.field, bad.message);
      notes.error(bad.message);
      return;
    }
    setReceiverError(null);
    dispatch({ type: 'busy' });
    try {
      const refusal = await rfcRefusal(r.rfc);
      if (refusal) {
        dispatch({ type: 'idle' });
        focusReceiver('rfc', refusal);
        notes.error(refusal);
        return;
      }
      const { request_id } = await requestInvoice(flow.ticket.ref, {
        ...anonymousRequest(r),
        ...(flow.refactura ? refacturaProof(flow.values, flow.ticket, check.code) : {}),
      });
      const outcome = invoiceOutcome(await followInvoiceRequest(request_id), flow.refactura);
      if (outcome.kind === 'error') throw new ApiError(outcome.message, 422);
      notes.dismissAll();
      toast.success(outcome.message);
      form.clear();
      setReceiver(emptyReceiver());
      check.reset();
      dispatch({ type: 'done' });
    } catch (err) {
      const message = fail(err);
      if (message === MSG.refacturaProofMismatch || message === MSG.refacturaProofRequired) {
        check.show(message);
      }
    }
  }

  async function onResend() {
    if (flow.stage !== 'invoiced' || !flow.ticket.invoice) return;
    dispatch({ type: 'busy' });
    try {
      await resendInvoice(flow.ticket.invoice.request_id);
      notes.dismissAll();
      toast.success(MSG.invoiceResent);
      form.clear();
      dispatch({ type: 'done' });
    } catch (err) {
      fail(err);
    }
  }

  const invoiced = flow.stage === 'invoiced' ? flow.ticket : null;
  return (
    <main id="main" className="page page--form invoice-page">
      <MerchantHeader merchant={merchant} subtitle="Factura tu ticket sin crear cuenta." />
      {problem && (
        <div className="notice notice--error" role="alert">
          <p>{problem}</p>
        </div>
      )}
      <form className="card stack" onSubmit={flow.stage === 'receiver' ? onSend : onFacturar} noValidate aria-busy={flow.busy || undefined}>
        {state.status === 'ready' ? (
          <DynamicFields fields={fields} values={form.values} onChange={form.onChange} error={form.error} registerRef={form.registerRef} disabled={flow.busy || flow.stage === 'receiver'} />
        ) : (
          <FieldsLoading state={state} onRetry={reload} />
        )}
        {flow.stage === 'receiver' && (
          <>
            <TicketSummary ticket={flow.ticket} />
            {flow.refactura && <RefacturaCheck value={check.code} onChange={check.setCode} error={check.error} inputRef={check.ref} disabled={flow.busy} />}
            <ReceiverFields form={receiver} onChange={setReceiver} error={receiverError} refFor={refFor} disabled={flow.busy} />
          </>
        )}
        <div className="form-actions">
          {flow.stage === 'receiver' && (
            <Button onClick={() => { check.reset(); dispatch({ type: 'cancel' }); }} disabled={flow.busy}>
              Cancelar
            </Button>
          )}
          <Button type="submit" variant="primary" loading={flow.busy} disabled={state.status !== 'ready'}>
            Facturar
          </Button>
        </div>
      </form>
      <InvoicedDialog
        invoiced={invoiced}
        busy={flow.busy}
        onClose={() => dispatch({ type: 'cancel' })}
        onRefacturar={() => dispatch({ type: 'refacturar' })}
        onResend={() => void onResend()}
      />
    </main>
  );
}
