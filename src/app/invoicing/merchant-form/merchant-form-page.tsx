// Merchant form (merchant/{merchant}, spec §2/§4): the merchant's fields without Importe and Fecha →
// verify → the ticket and the receiver's RFC and e-mail → invoice → follow the request → 'Factura
// enviada exitosamente.', a link to the ticket, and the form cleared. A QR's ref/check/total verify the ticket directly.
import { useParams, useRouterState } from '@tanstack/react-router';
import { useEffect, useEffectEvent, useMemo, useReducer, useRef, useState, type FormEvent } from 'react';
import { useFieldRefs } from '../../ui/use-field-problem';
import { accountDisplayName, type Account } from '../../../domain/account';
import { isValidEmail } from '../../../domain/email';
import { newId } from '../../../domain/ids';
import { checkRegimeForUso, USOS_CFDI } from '../../../domain/invoicing';
import { shownInMerchantForm, type FormFieldDefinition } from '../../../domain/merchant-fields';
import { merchantByShortName, type MerchantEntry } from '../../../domain/merchants';
import { MSG } from '../../../domain/messages';
import { normalizeRfc } from '../../../domain/rfc';
import { getSession } from '../../../offline/session';
import { ApiError } from '../../../offline/http';
import { followInvoiceRequest, requestInvoice, verifyTicket, type QrRef, type VerifiedTicket } from '../../api/invoicing';
import { parseSearch } from '../../search-params';
import { useLayout } from '../../layout/layout-context';
import { Button } from '../../ui/button';
import { Select, TextField } from '../../ui/fields';
import { useScreenToasts } from '../../ui/use-screen-toasts';
import { DynamicFields } from '../fields/dynamic-fields';
import { useFieldForm } from '../fields/use-field-form';
import { accountPostalCode, accountRegime } from '../form-parts/account-tax';
import { FieldsLoading } from '../form-parts/fields-loading';
import { InvoiceDone, type InvoiceDoneInfo } from '../form-parts/invoice-done';
import { invoiceOutcome } from '../form-parts/invoice-outcome';
import { MerchantHeader } from '../form-parts/merchant-header';
import { TaxDataNotice } from '../form-parts/tax-data-notice';
import { TicketSummary } from '../form-parts/ticket-summary';
import { UnknownMerchant } from '../form-parts/unknown-merchant';
import { useFormFields } from '../form-parts/use-form-fields';
import { dexieFieldsCache } from '../ticket-form/ticket-form-page';
import { initialMerchantStep, merchantReducer } from './merchant-flow';
import '../invoice.css';

const USO_OPTIONS = USOS_CFDI.map((u) => ({ value: u.code, label: `${u.code} — ${u.name}` }));

export function MerchantFormPage() {
  const { merchant: short } = useParams({ strict: false }) as { merchant?: string };
  const searchStr = useRouterState({ select: (s) => s.location.searchStr });
  const merchant = short ? merchantByShortName(short) : undefined;
  if (!merchant) return <UnknownMerchant />;
  const qr = qrFromSearch(searchStr);
  return <MerchantForm key={`${merchant.short_name}|${qr?.ref ?? ''}`} merchant={merchant} qr={qr} />;
}

/** The QR's ref/check/total from the query, as typed (a check code may be empty). */
export function qrFromSearch(searchStr: string): QrRef | null {
  const q = parseSearch(searchStr);
  const ref = q.ref ?? '';
  const total = q.total ?? '';
  return ref && total ? { ref, check: q.check ?? '', total } : null;
}

type ReceiverField = 'rfc' | 'email' | 'uso';

/** The second step: the verified ticket, then whom the invoice is for (RFC, e-mail, uso del CFDI). */
function ReceiverForm(props: {
  ticket: VerifiedTicket;
  busy: boolean;
  selected: Account | null | undefined;
  accounts: Account[] | undefined;
  receiver: { rfc: string; email: string; uso: string };
  onRfc: (rfc: string) => void;
  onEmail: (email: string) => void;
  onUso: (uso: string) => void;
  err: (f: ReceiverField) => string | null;
  reg: ReturnType<typeof useFieldRefs<ReceiverField>>['reg'];
  onSend: (e: FormEvent) => void;
  onBack: () => void;
}) {
  const { ticket, busy, selected, accounts, receiver, onRfc, onEmail, onUso, err, reg, onSend, onBack } = props;
  return (
    <form className="card stack" onSubmit={onSend} noValidate aria-busy={busy || undefined}>
      <TicketSummary ticket={ticket} />
      {selected && <TaxDataNotice account={accounts?.find((a) => a.rfc === normalizeRfc(receiver.rfc)) ?? selected} />}
      <TextField
        label="RFC"
        value={receiver.rfc}
        onChange={(e) => onRfc(e.target.value.toUpperCase().replace(/\s+/g, ''))}
        maxLength={13}
        autoCapitalize="characters"
        autoComplete="off"
        spellCheck={false}
        list="merchant-form-rfcs"
        error={err('rfc')}
        inputRef={reg('rfc')}
        disabled={busy}
      />
      <datalist id="merchant-form-rfcs">
        {accounts?.map((a) => (
          <option key={a.diverza_client_id} value={a.rfc}>
            {accountDisplayName(a)}
          </option>
        ))}
      </datalist>
      <TextField label="Correo electrónico" type="email" value={receiver.email} onChange={(e) => onEmail(e.target.value)} autoComplete="email" error={err('email')} inputRef={reg('email')} disabled={busy} />
      <Select label="Uso del CFDI" options={USO_OPTIONS} value={receiver.uso} onChange={(e) => onUso(e.target.value)} error={err('uso')} selectRef={reg('uso')} disabled={busy} />
      <div className="form-actions">
        <Button onClick={onBack} disabled={busy}>
          Otro ticket
        </Button>
        <Button type="submit" variant="primary" loading={busy}>
          Facturar
        </Button>
      </div>
    </form>
  );
}

/** What the receiver stage asks of the signed-in user; the first problem, in the form's order. */
function receiverProblem(account: Account | undefined, accounts: readonly Account[] | undefined, r: { rfc: string; email: string; uso: string }): { field: ReceiverField; message: string } | null {
  if (!account) return { field: 'rfc', message: accounts?.length ? 'Ese RFC no está en tu cuenta. Elige uno de tus RFC o agrégalo con “Añadir RFC”.' : MSG.receiverRfcInvalid };
  if (!normalizeRfc(r.rfc)) return { field: 'rfc', message: MSG.receiverRfcInvalid };
  if (!isValidEmail(r.email.trim().toLowerCase())) return { field: 'email', message: MSG.receiverEmailInvalid };
  if (!USOS_CFDI.some((u) => u.code === r.uso)) return { field: 'uso', message: MSG.usoRequired };
  // SAT's c_UsoCFDI for the account's regime and person type, as the server and the PAC check it.
  const regime = accountRegime(account);
  const rule = regime ? checkRegimeForUso(regime, r.uso, account.rfc) : null;
  if (rule) return { field: 'uso', message: rule };
  return null;
}

/** The request for the selected account, followed until it says how it went (an error is thrown). */
async function sendForAccount(ticket: VerifiedTicket, account: Account, ticketId: string, email: string, uso: string): Promise<InvoiceDoneInfo> {
  const { request_id } = await requestInvoice(ticket.ref, {
    client: account.diverza_client_id,
    ticket_id: ticketId,
    email: email.trim().toLowerCase(),
    rfc: account.rfc,
    uso_cfdi: uso,
    nombre: accountDisplayName(account),
    regimen_fiscal_receptor: accountRegime(account) ?? '',
    codigo_postal: accountPostalCode(account),
    ...(account.residencia_fiscal ? { residencia_fiscal: account.residencia_fiscal } : {}),
    ...(account.num_reg_id_trib ? { num_reg_id_trib: account.num_reg_id_trib } : {}),
  });
  const outcome = invoiceOutcome(await followInvoiceRequest(request_id));
  if (outcome.kind === 'error') throw new ApiError(outcome.message, 422);
  return { message: outcome.message, ticketRef: ticket.ref };
}

/** Verifies a ticket (typed fields or a scanned QR's ref); a QR in the address verifies once, right away. */
function useVerify(merchant: MerchantEntry, qr: QrRef | null, form: ReturnType<typeof useFieldForm>, dispatch: (a: Parameters<typeof merchantReducer>[1]) => void, say: (message: string) => void, onStart: () => void) {
  async function verify(lookup: Parameters<typeof verifyTicket>[1]) {
    onStart();
    dispatch({ type: 'verify' });
    try {
      const ticket = await verifyTicket(merchant.id, lookup, 'merchant');
      if (ticket.invoiced) throw new ApiError(MSG.ticketAlreadyInvoiced, 409);
      dispatch({ type: 'verified', ticket });
    } catch (err) {
      dispatch({ type: 'failed' });
      const message = err instanceof ApiError ? err.message : MSG.generic;
      say(message);
      if (err instanceof ApiError && (err.status === 404 || err.status === 422) && !('ref' in lookup)) form.showTicketError(message);
    }
  }
  const qrDone = useRef(false);
  const verifyQr = useEffectEvent((ref: QrRef) => void verify(ref));
  useEffect(() => {
    if (!qr || qrDone.current) return;
    qrDone.current = true;
    verifyQr(qr);
  }, [qr]);
  return verify;
}

/** The receiver's RFC, e-mail and Uso (the session's e-mail, G03 by default), and the one message among them. */
function useReceiverState() {
  const [rfc, setRfc] = useState('');
  const [email, setEmail] = useState(getSession()?.email ?? '');
  const [uso, setUso] = useState('G03');
  const [receiverError, setReceiverError] = useState<{ field: ReceiverField; message: string } | null>(null);
  const { reg, focus } = useFieldRefs<ReceiverField>();
  const err = (f: ReceiverField) => (receiverError?.field === f ? receiverError.message : null);
  return { rfc, setRfc, email, setEmail, uso, setUso, setReceiverError, reg, focus, err };
}

/** The first step: the merchant's fields (without Importe and Fecha) and 'Buscar ticket'. */
function TicketStep({ fields, form, state, reload, busy, onVerify }: {
  fields: readonly FormFieldDefinition[];
  form: ReturnType<typeof useFieldForm>;
  state: ReturnType<typeof useFormFields>['state'];
  reload: () => void;
  busy: boolean;
  onVerify: (e: FormEvent) => void;
}) {
  return (
    <form className="card stack" onSubmit={onVerify} noValidate aria-busy={busy || undefined}>
      {state.status === 'ready' ? (
        <DynamicFields fields={fields} values={form.values} onChange={form.onChange} error={form.error} registerRef={form.registerRef} disabled={busy} />
      ) : (
        <FieldsLoading state={state} onRetry={reload} />
      )}
      <div className="form-actions">
        <Button type="submit" variant="primary" loading={busy} disabled={state.status !== 'ready'}>
          Buscar ticket
        </Button>
      </div>
    </form>
  );
}

function MerchantForm({ merchant, qr }: { merchant: MerchantEntry; qr: QrRef | null }) {
  const { selected, accounts } = useLayout();
  const { state, reload } = useFormFields(merchant.id, dexieFieldsCache);
  const fields = useMemo(() => (state.status === 'ready' ? state.fields.filter(shownInMerchantForm) : []), [state]);
  const form = useFieldForm(fields);
  const [flow, dispatch] = useReducer(merchantReducer, initialMerchantStep);
  // Error toasts belong to this screen: a new one replaces the last, and they close when it goes away.
  const notes = useScreenToasts();
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<InvoiceDoneInfo | null>(null);
  const { rfc, setRfc, email, setEmail, uso, setUso, setReceiverError, reg, focus, err } = useReceiverState();
  // The account ticket the request creates: one id per ticket, so a retried send never makes two.
  const ticketId = useRef(newId());
  const say = (message: string) => {
    setProblem(message);
    notes.error(message);
  };
  const verify = useVerify(merchant, qr, form, dispatch, say, () => {
    setProblem(null);
    setDone(null);
  });

  // The selected account's RFC until the user types another one.
  if (selected && !rfc) setRfc(selected.rfc);

  function onVerify(e: FormEvent) {
    e.preventDefault();
    const values = form.validate();
    if (values) void verify(values);
  }

  async function onSend(e: FormEvent) {
    e.preventDefault();
    if (flow.step !== 'receiver') return;
    const account = accounts?.find((a) => a.rfc === normalizeRfc(rfc));
    const bad = receiverProblem(account, accounts, { rfc, email, uso });
    if (bad || !account) {
      if (bad) {
        setReceiverError(bad);
        focus(bad.field);
      }
      return;
    }
    setReceiverError(null);
    setProblem(null);
    dispatch({ type: 'send' });
    try {
      const info = await sendForAccount(flow.ticket, account, ticketId.current, email, uso);
      notes.dismissAll();
      setDone(info);
      form.clear();
      ticketId.current = newId();
      dispatch({ type: 'done' });
    } catch (err) {
      dispatch({ type: 'failed' });
      say(err instanceof ApiError ? err.message : MSG.generic);
    }
  }

  return (
    <main id="main" className="page page--form invoice-page">
      <MerchantHeader merchant={merchant} subtitle="Solicita la factura de tu ticket." />
      {problem && (
        <div className="notice notice--error" role="alert">
          <p>{problem}</p>
        </div>
      )}
      {done && <InvoiceDone done={done} onClose={() => setDone(null)} />}
      {flow.step === 'ticket' ? (
        <TicketStep fields={fields} form={form} state={state} reload={reload} busy={flow.busy} onVerify={onVerify} />
      ) : (
        <ReceiverForm
          ticket={flow.ticket}
          busy={flow.busy}
          selected={selected}
          accounts={accounts}
          receiver={{ rfc, email, uso }}
          onRfc={setRfc}
          onEmail={setEmail}
          onUso={setUso}
          err={err}
          reg={reg}
          onSend={onSend}
          onBack={() => dispatch({ type: 'back' })}
        />
      )}
    </main>
  );
}
