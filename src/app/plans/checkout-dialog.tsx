// The card checkout dialog (spec §7): the amount in MXN, the session e-mail prefilled, and the card. The
// server says which card form to show (payments/config.json): with the sandbox, our own number, expiry and
// CVC fields with Spanish errors, tokenised by the sandbox; with Stripe, Stripe's Card Element
// (stripe-card.tsx) and a PaymentIntent confirmed by Stripe.js, 3-D Secure included. A refused card keeps the
// dialog open with the bank's reason; our fields keep the number as typed and clear only the CVC, as
// payment forms do after a failed attempt.
import { useState, type FormEvent, type ReactNode } from 'react';
import { useFieldRefs } from '../ui/use-field-problem';
import type { Plan } from '../../domain/plans';
import { formatMoney } from '../../domain/money';
import { ApiError } from '../../offline/http';
import { MSG } from '../../domain/messages';
import { Button } from '../ui/button';
import { TextField } from '../ui/fields';
import { Modal } from '../ui/overlay';
import { checkCardForm, digitsOf, formatCardNumber, formatExpiry, parseExpiry, type CardErrors, type CardForm } from './card-model';
import { declineField } from '../../domain/payment-card';
import { CardDeclined, getPaymentsConfig, openStripeIntent, paymentsConfigKey, tokenizeCard, type CardToken, type PaymentsConfig } from './plans-api';
import { checkoutAmountCents } from './pricing-model';
import { problemOf, useApiQuery } from '../api/query';
import { useLayout } from '../layout/layout-context';
import { Spinner } from '../ui/button';
import { StripeCardField, useStripeCard } from './stripe-card';

const CARD_UNAVAILABLE = 'El pago con tarjeta no está disponible en este momento. Escríbenos por el chat y te ayudamos a contratar.';
const CARD_INCOMPLETE = 'Completa los datos de la tarjeta.';
const STRIPE_FAILED = 'No se pudo cargar el formulario de pago. Revisa tu conexión y vuelve a abrirlo.';

interface Props {
  plan: Plan | null;
  email: string;
  onClose: () => void;
  /** Pays with the token; resolves once the plan is active, throws CardDeclined or ApiError. */
  onPay: (plan: Plan, token: CardToken) => Promise<void>;
}

export function CheckoutDialog({ plan, email, onClose, onPay }: Props) {
  return (
    <Modal open={plan !== null} onClose={onClose} title="Pago con tarjeta">
      {plan && <CheckoutBody key={plan.id} plan={plan} email={email} onPay={onPay} onClose={onClose} />}
    </Modal>
  );
}

/** The card form the server's provider takes; a short wait while it says which. */
function CheckoutBody(props: Props & { plan: Plan }) {
  const config = useApiQuery(paymentsConfigKey, ({ signal }) => getPaymentsConfig(signal), { staleTime: Infinity });
  const problem = problemOf(config);
  if (config.data?.provider === 'stripe') {
    return config.data.stripe ? <StripeCheckoutForm {...props} stripe={config.data.stripe} /> : <ErrorNotice message={CARD_UNAVAILABLE} />;
  }
  if (config.data) return <CheckoutForm {...props} />;
  if (problem) return <ErrorNotice message={problem instanceof ApiError ? problem.message : MSG.generic} />;
  return (
    <p className="muted">
      <Spinner label="Preparando el pago" /> Preparando el pago…
    </p>
  );
}

function ErrorNotice({ message }: { message: string }) {
  return (
    <div className="notice notice--error" role="alert">
      <p>{message}</p>
    </div>
  );
}

/** Why the bank said no, the spec's message, and what to do next. */
function DeclineNotice({ reason, next = 'Escribe el CVC de nuevo para reintentar, o usa otra tarjeta.' }: { reason: string; next?: string }) {
  return (
    <div className="notice notice--error checkout__decline" role="alert">
      <p>
        <strong>{reason}.</strong> {MSG.chargeFailed}
      </p>
      <p>{next}</p>
    </div>
  );
}

/** The amount, the refusal or failure, the e-mail; then the card fields; then the note and the buttons. */
function CheckoutFrame(p: { plan: Plan; email: string; declined: ReactNode; serverError: string | null; busy: boolean; ready?: boolean; onClose: () => void; onSubmit: (e: FormEvent) => void; children: ReactNode }) {
  const cents = checkoutAmountCents(p.plan);
  return (
    <form className="stack checkout" onSubmit={p.onSubmit} noValidate lang="es-MX">
      <div className="checkout__amount">
        <span className="muted">{p.plan.name}</span>
        <strong className="tabular" data-amount-cents={cents}>
          {formatMoney(cents / 100)} <abbr title="pesos mexicanos">MXN</abbr>
        </strong>
        <span className="muted">{p.plan.interval === 12 ? 'Pago anual, IVA incluido' : 'Pago mensual, IVA incluido'}</span>
      </div>
      {p.declined}
      {p.serverError && <ErrorNotice message={p.serverError} />}
      <TextField label="Correo electrónico" type="email" value={p.email} readOnly autoComplete="email" hint="Aquí te enviaremos el recibo." />
      {p.children}
      <p className="muted checkout__note">Tus datos de tarjeta van directo al procesador de pagos: no los guardamos.</p>
      <div className="form-actions">
        <Button onClick={p.onClose} disabled={p.busy}>
          Cancelar
        </Button>
        <Button type="submit" variant="primary" loading={p.busy} disabled={p.ready === false}>
          {p.busy ? 'Procesando tu pago…' : `Pagar ${formatMoney(cents / 100)}`}
        </Button>
      </div>
    </form>
  );
}

/**
 * Stripe's card field: the server opens the PaymentIntent, Stripe.js confirms it with the card (and shows
 * the bank's 3-D Secure check when asked), and the server reads from Stripe whether it was paid.
 */
function StripeCheckoutForm({ plan, email, onPay, onClose, stripe }: Props & { plan: Plan; stripe: NonNullable<PaymentsConfig['stripe']> }) {
  const { selected } = useLayout();
  const { state, target } = useStripeCard(stripe);
  const [serverError, setServerError] = useState<string | null>(null);
  const [declined, setDeclined] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setServerError(null);
    setDeclined(null);
    setFieldError(null);
    if (state.status !== 'ready') return;
    if (!state.complete) {
      setFieldError(state.error ?? CARD_INCOMPLETE);
      state.card.focus();
      return;
    }
    if (!selected) return setServerError(MSG.generic);
    setBusy(true);
    try {
      const intent = await openStripeIntent(plan.id, selected.diverza_client_id);
      const confirmed = await state.stripe.confirmCardPayment(intent.client_secret, { payment_method: { card: state.card } });
      if (confirmed.error?.type === 'validation_error') {
        setFieldError(confirmed.error.message ?? CARD_INCOMPLETE);
        setBusy(false);
        return;
      }
      // Paid, refused, or 3-D Secure left unfinished: the server asks Stripe, records it and says which.
      await onPay(plan, { id: confirmed.paymentIntent?.id ?? confirmed.error?.payment_intent?.id ?? intent.id });
    } catch (err) {
      setBusy(false);
      if (err instanceof CardDeclined) {
        setDeclined(err.message);
        state.card.focus();
      } else setServerError(err instanceof ApiError ? err.message : MSG.generic);
    }
  }

  return (
    <CheckoutFrame
      plan={plan}
      email={email}
      declined={declined && <DeclineNotice reason={declined} next="Revisa los datos para reintentar, o usa otra tarjeta." />}
      serverError={state.status === 'failed' ? STRIPE_FAILED : serverError}
      busy={busy}
      ready={state.status === 'ready'}
      onClose={onClose}
      onSubmit={submit}
    >
      <StripeCardField target={target} error={fieldError ?? (state.status === 'ready' ? state.error : null)} />
    </CheckoutFrame>
  );
}

function CheckoutForm({ plan, email, onPay, onClose }: Props & { plan: Plan }) {
  const [form, setForm] = useState<CardForm>({ number: '', expiry: '', cvc: '' });
  const [errors, setErrors] = useState<CardErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [declined, setDeclined] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { reg, focus } = useFieldRefs<keyof CardForm, HTMLInputElement>();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = checkCardForm(form, new Date());
    setErrors(found);
    setServerError(null);
    setDeclined(null);
    const first = (['number', 'expiry', 'cvc'] as const).find((k) => found[k]);
    if (first) {
      focus(first);
      return;
    }
    const exp = parseExpiry(form.expiry)!;
    setBusy(true);
    let token: CardToken;
    try {
      token = await tokenizeCard({ number: digitsOf(form.number), exp_month: exp.month, exp_year: exp.year, cvc: form.cvc.trim() });
    } catch (err) {
      // 404: the server charges through Stripe, whose Stripe.js tokeniser this build does not load.
      setServerError(err instanceof ApiError ? (err.status === 404 ? CARD_UNAVAILABLE : err.message) : MSG.generic);
      setBusy(false);
      return;
    }
    try {
      await onPay(plan, token);
    } catch (err) {
      refused(err);
    }
  }

  /** A refused payment: the reason on top, the number kept, the CVC cleared and focused (or the field the bank named). */
  function refused(err: unknown) {
    setBusy(false);
    if (!(err instanceof CardDeclined)) {
      setServerError(err instanceof ApiError ? err.message : MSG.generic);
      return;
    }
    setDeclined(err.message);
    setForm((f) => ({ ...f, cvc: '' }));
    const field = declineField(err.code);
    if (field && field !== 'cvc') setErrors({ [field]: err.message });
    focus(field ?? 'cvc');
  }

  const set = (k: keyof CardForm, v: string) => setForm((f) => ({ ...f, [k]: v }));

  return (
    <CheckoutFrame plan={plan} email={email} declined={declined && <DeclineNotice reason={declined} />} serverError={serverError} busy={busy} onClose={onClose} onSubmit={submit}>
      <TextField
        label="Número de tarjeta"
        inputMode="numeric"
        autoComplete="cc-number"
        value={form.number}
        onChange={(e) => set('number', formatCardNumber(e.target.value))}
        error={errors.number}
        inputRef={reg('number')}
        data-autofocus
        placeholder="1234 5678 9012 3456"
      />
      <div className="checkout__row">
        <TextField
          label="Vencimiento (MM/AA)"
          inputMode="numeric"
          autoComplete="cc-exp"
          value={form.expiry}
          onChange={(e) => set('expiry', formatExpiry(e.target.value))}
          error={errors.expiry}
          inputRef={reg('expiry')}
          placeholder="MM/AA"
        />
        <TextField
          label="CVC"
          inputMode="numeric"
          autoComplete="cc-csc"
          maxLength={4}
          value={form.cvc}
          onChange={(e) => set('cvc', digitsOf(e.target.value))}
          error={errors.cvc}
          inputRef={reg('cvc')}
        />
      </div>
    </CheckoutFrame>
  );
}
