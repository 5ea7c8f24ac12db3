// The card checkout dialog (spec §7): the amount in MXN, the session e-mail prefilled, card number,
// expiry and CVC with Spanish errors. It tokenises the card (sandbox tokeniser; with Stripe this is
// Stripe.js) and pays with it. A refused card keeps the dialog open with the bank's reason and the card
// number as typed; only the CVC is cleared, as payment forms do after a failed attempt.
import { useState, type FormEvent } from 'react';
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
import { CardDeclined, tokenizeCard, type CardToken } from './plans-api';
import { checkoutAmountCents } from './pricing-model';

const CARD_UNAVAILABLE = 'El pago con tarjeta no está disponible en este momento. Escríbenos por el chat y te ayudamos a contratar.';

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
      {plan && <CheckoutForm key={plan.id} plan={plan} email={email} onPay={onPay} onClose={onClose} />}
    </Modal>
  );
}

/** Why the bank said no, the spec's message, and what to do next. */
function DeclineNotice({ reason }: { reason: string }) {
  return (
    <div className="notice notice--error checkout__decline" role="alert">
      <p>
        <strong>{reason}.</strong> {MSG.chargeFailed}
      </p>
      <p>Escribe el CVC de nuevo para reintentar, o usa otra tarjeta.</p>
    </div>
  );
}

function CheckoutForm({ plan, email, onPay, onClose }: Props & { plan: Plan }) {
  const [form, setForm] = useState<CardForm>({ number: '', expiry: '', cvc: '' });
  const [errors, setErrors] = useState<CardErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [declined, setDeclined] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { reg, focus } = useFieldRefs<keyof CardForm, HTMLInputElement>();
  const cents = checkoutAmountCents(plan);

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
    <form className="stack checkout" onSubmit={submit} noValidate lang="es-MX">
      <div className="checkout__amount">
        <span className="muted">{plan.name}</span>
        <strong className="tabular" data-amount-cents={cents}>
          {formatMoney(cents / 100)} <abbr title="pesos mexicanos">MXN</abbr>
        </strong>
        <span className="muted">{plan.interval === 12 ? 'Pago anual, IVA incluido' : 'Pago mensual, IVA incluido'}</span>
      </div>
      {declined && <DeclineNotice reason={declined} />}
      {serverError && (
        <div className="notice notice--error" role="alert">
          <p>{serverError}</p>
        </div>
      )}
      <TextField label="Correo electrónico" type="email" value={email} readOnly autoComplete="email" hint="Aquí te enviaremos el recibo." />
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
      <p className="muted checkout__note">Tus datos de tarjeta van directo al procesador de pagos: no los guardamos.</p>
      <div className="form-actions">
        <Button onClick={onClose} disabled={busy}>
          Cancelar
        </Button>
        <Button type="submit" variant="primary" loading={busy}>
          {busy ? 'Procesando tu pago…' : `Pagar ${formatMoney(cents / 100)}`}
        </Button>
      </div>
    </form>
  );
}
