// The anonymous ticket form itself (no account needed; spec §2, §4 'Anonymous flow', §5 'SAT and anonymous
// form'): a chunk of its own, loaded by anonymous-form-page.tsx while the front door already shows.
import { useMemo, useReducer, useRef, useState, type FormEvent, type RefObject } from 'react';
import { checkReceiver, normalizeReceiver, type ReceiverField, type ReceiverForm } from '../../../domain/invoicing';
import { shownInAnonymousForm } from '../../../domain/merchant-fields';
import type { MerchantEntry } from '../../../domain/merchants';
import { MSG } from '../../../domain/messages';
import { ApiError } from '../../../offline/http';
import { checkRfc, followInvoiceRequest, invoicePdfUrl, requestInvoice, resendInvoice, verifyTicket, type VerifiedTicket } from '../../api/invoicing';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/fields';
import { Modal } from '../../ui/overlay';
import { useFieldRefs } from '../../ui/use-field-problem';
import { useScreenToasts } from '../../ui/use-screen-toasts';
import { DynamicFields } from '../fields/dynamic-fields';
import { useFieldForm } from '../fields/use-field-form';
import { FieldsLoading } from '../form-parts/fields-loading';
import { InvoiceDone, type InvoiceDoneInfo } from '../form-parts/invoice-done';
import { invoiceOutcome } from '../form-parts/invoice-outcome';
import { MerchantHeader } from '../form-parts/merchant-header';
import { TicketSummary } from '../form-parts/ticket-summary';
import { useFormFields } from '../form-parts/use-form-fields';
import { anonymousReducer, emptyReceiver, initialAnonymous, refacturaProof, revealForeignFirst, type AnonymousAction, type AnonymousStage } from './anonymous-flow';
import { anonymousFormTitle } from './front-door';
import { ReprintAction } from './reprint-action';
import { ReceiverFields } from './receiver-fields';
import '../invoice.css';

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

/** The receiver stage's form, its one message, and focusing the field a check points at. */
function useReceiver() {
  const [receiver, setReceiver] = useState<ReceiverForm>(emptyReceiver);
  const [error, setError] = useState<{ field: ReceiverField; message: string } | null>(null);
  const { reg, focus } = useFieldRefs<ReceiverField, HTMLElement>();
  return {
    receiver,
    setReceiver,
    error,
    clearError: () => setError(null),
    reg,
    /** Shows `message` at `field` (null: clears it) and moves the focus there. */
    point: (field: ReceiverField, message: string | null) => {
      setError(message ? { field, message } : null);
      requestAnimationFrame(() => focus(field));
    },
    reset: () => setReceiver(emptyReceiver()),
  };
}

type Receiver = ReturnType<typeof useReceiver>;

/** The checks before anything is sent, in the spec's order; the normalised receiver when the form may go. */
function receiverReady(
  { rx, check, notes }: { rx: Receiver; check: ReturnType<typeof useCheckCode>; notes: ReturnType<typeof useScreenToasts> },
  stage: Extract<AnonymousStage, { stage: 'receiver' }>,
): ReturnType<typeof normalizeReceiver> | null {
  const reveal = revealForeignFirst(rx.receiver);
  if (reveal) {
    rx.setReceiver(reveal.form);
    rx.point(reveal.focus, null);
    return null;
  }
  if (stage.refactura && !check.code.trim()) {
    check.show(MSG.refacturaProofRequired);
    notes.error(MSG.refacturaProofRequired);
    return null;
  }
  check.show(null);
  const r = normalizeReceiver(rx.receiver);
  const bad = checkReceiver(r);
  if (bad) {
    rx.point(bad.field, bad.message);
    notes.error(bad.message);
    return null;
  }
  rx.clearError();
  return r;
}

/**
 * The RFC's SAT check, the request and its outcome: what the done panel shows (the PDF once stamped), or
 * the SAT's refusal of the RFC. Other failures are thrown.
 */
async function sendInvoice(
  stage: Extract<AnonymousStage, { stage: 'receiver' }>,
  r: ReturnType<typeof normalizeReceiver>,
  checkCode: string,
): Promise<InvoiceDoneInfo | { refusal: string }> {
  const refusal = await rfcRefusal(r.rfc);
  if (refusal) return { refusal };
  const proof = stage.refactura ? refacturaProof(stage.values, stage.ticket, checkCode) : {};
  const { request_id } = await requestInvoice(stage.ticket.ref, { ...anonymousRequest(r), ...proof });
  const view = await followInvoiceRequest(request_id);
  const outcome = invoiceOutcome(view, stage.refactura);
  if (outcome.kind === 'error') throw new ApiError(outcome.message, 422);
  return { message: outcome.message, ticketRef: stage.ticket.ref, ...(view.status === 'enviada' ? { pdfHref: invoicePdfUrl(request_id) } : {}) };
}

type Flow = ReturnType<typeof useReducer<AnonymousStage, [AnonymousAction]>>;

/** The handlers of the form: verify the ticket, send the receiver's data, resend an invoiced one. */
function useAnonymousActions(merchant: MerchantEntry, form: ReturnType<typeof useFieldForm>, [flow, dispatch]: Flow) {
  // Error toasts belong to this screen: a new one replaces the last, and they close when it goes away.
  const notes = useScreenToasts();
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<InvoiceDoneInfo | null>(null);
  const check = useCheckCode();
  const rx = useReceiver();

  function fail(err: unknown) {
    dispatch({ type: 'idle' });
    const message = err instanceof ApiError ? err.message : MSG.generic;
    setProblem(message);
    notes.error(message);
    return message;
  }

  function finish(info: InvoiceDoneInfo) {
    notes.dismissAll();
    setDone(info);
    form.clear();
    rx.reset();
    check.reset();
    dispatch({ type: 'done' });
  }

  async function onFacturar(e: FormEvent) {
    e.preventDefault();
    setProblem(null);
    const values = form.validate();
    if (!values) return;
    setDone(null);
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
    const r = receiverReady({ rx, check, notes }, flow);
    if (!r) return;
    dispatch({ type: 'busy' });
    try {
      const sent = await sendInvoice(flow, r, check.code);
      if ('refusal' in sent) {
        dispatch({ type: 'idle' });
        rx.point('rfc', sent.refusal);
        notes.error(sent.refusal);
        return;
      }
      finish(sent);
    } catch (err) {
      const message = fail(err);
      if (message === MSG.refacturaProofMismatch || message === MSG.refacturaProofRequired) check.show(message);
    }
  }

  async function onResend() {
    if (flow.stage !== 'invoiced' || !flow.ticket.invoice) return;
    const { ref, invoice } = flow.ticket;
    dispatch({ type: 'busy' });
    try {
      await resendInvoice(invoice.request_id);
      finish({ message: MSG.invoiceResent, ticketRef: ref, pdfHref: invoicePdfUrl(invoice.request_id) });
    } catch (err) {
      fail(err);
    }
  }

  return { problem, done, closeDone: () => setDone(null), check, rx, onFacturar, onSend, onResend };
}

export function AnonymousForm({ merchant, frontDoor }: { merchant: MerchantEntry; frontDoor: boolean }) {
  const { state, reload } = useFormFields(merchant.id);
  const fields = useMemo(() => (state.status === 'ready' ? state.fields.filter(shownInAnonymousForm) : []), [state]);
  const form = useFieldForm(fields);
  const [flow, dispatch] = useReducer(anonymousReducer, initialAnonymous);
  const a = useAnonymousActions(merchant, form, [flow, dispatch]);
  const { check, rx } = a;
  const invoiced = flow.stage === 'invoiced' ? flow.ticket : null;
  return (
    <section className="invoice-page front-door__form" aria-labelledby="anonymous-form-title">
      <MerchantHeader
        merchant={merchant}
        title={anonymousFormTitle(merchant)}
        titleId="anonymous-form-title"
        level={frontDoor ? 2 : 1}
        subtitle="Te enviamos la factura en PDF y XML a tu correo."
      />
      {a.problem && (
        <div className="notice notice--error" role="alert">
          <p>{a.problem}</p>
        </div>
      )}
      {a.done && <InvoiceDone done={a.done} onClose={a.closeDone} />}
      <form className="card stack" onSubmit={flow.stage === 'receiver' ? a.onSend : a.onFacturar} noValidate aria-busy={flow.busy || undefined}>
        {state.status === 'ready' ? (
          <DynamicFields fields={fields} values={form.values} onChange={form.onChange} error={form.error} registerRef={form.registerRef} disabled={flow.busy || flow.stage === 'receiver'} />
        ) : (
          <FieldsLoading state={state} onRetry={reload} />
        )}
        {flow.stage === 'receiver' && (
          <>
            <TicketSummary ticket={flow.ticket} />
            {flow.refactura && <RefacturaCheck value={check.code} onChange={check.setCode} error={check.error} inputRef={check.ref} disabled={flow.busy} />}
            <ReceiverFields form={rx.receiver} onChange={rx.setReceiver} error={rx.error} refFor={rx.reg} disabled={flow.busy} />
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
        onResend={() => void a.onResend()}
      />
    </section>
  );
}
