// The embedded sandbox provider (the default, no account needed): it tokenises Stripe's usual test cards
// and charges them with Stripe's outcomes. A token is a signed summary of the card (brand, last 4, expiry,
// outcome): the number itself is dropped the moment it is checked, so nothing stores it.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { cardBrand, CARD_MSG, expired, luhnValid } from '../../domain/payment-card';
import { PaymentError, type CardSummary, type ChargeFailure, type ChargeRequest, type ChargeResult, type Customer, type PaymentProvider } from './provider';

type Outcome = 'ok' | 'charge_fails' | Exclude<ChargeFailure, 'other'>;

/** Stripe's test numbers and what they do; any other valid number is declined, as in Stripe's test mode. */
const TEST_CARDS: Record<string, Outcome> = {
  '4242424242424242': 'ok',
  '5555555555554444': 'ok',
  '378282246310005': 'ok',
  '4000000000000002': 'declined',
  '4000000000009995': 'insufficient_funds',
  '4000000000000069': 'expired_card',
  '4000000000000127': 'incorrect_cvc',
  '4000000000000119': 'processing_error',
  // Stripe's lost and stolen cards: the holder is told only that the bank refused it.
  '4000000000009987': 'declined',
  '4000000000009979': 'declined',
  // Stripe's "attaches fine, every later charge fails": how renewals are tested.
  '4000000000000341': 'charge_fails',
};

const TOKEN_TTL_MS = 15 * 60_000;
const MAX_REMEMBERED_CHARGES = 10_000;

export interface CardInput {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}

interface Payload extends CardSummary {
  outcome: Outcome;
}

const b64 = (s: string) => Buffer.from(s).toString('base64url');
const unb64 = (s: string) => Buffer.from(s, 'base64url').toString('utf8');

/** The card checks of a tokenisation, as Spanish messages (null = fine). */
export function checkCard(card: CardInput, now: Date): string | null {
  const digits = card.number.replace(/[\s-]/g, '');
  if (!luhnValid(digits)) return CARD_MSG.number;
  const year = card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year;
  if (!Number.isInteger(card.exp_month) || card.exp_month < 1 || card.exp_month > 12 || !Number.isInteger(year)) return CARD_MSG.expiry;
  if (expired(card.exp_month, year, now)) return CARD_MSG.expired;
  const cvcLength = cardBrand(digits) === 'American Express' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(card.cvc)) return CARD_MSG.cvc;
  return null;
}

export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;
  private readonly key: Buffer;
  private readonly charges = new Map<string, ChargeResult>();

  constructor(
    private readonly clock: () => Date = () => new Date(),
    key?: Buffer,
  ) {
    // Tokens live minutes and only inside this process: a per-process key is enough.
    this.key = key ?? randomBytes(32);
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }

  /** Checks the card and returns a token, or throws PaymentError with the Spanish reason. */
  tokenize(card: CardInput): { id: string; card: CardSummary } {
    const problem = checkCard(card, this.clock());
    if (problem) throw new PaymentError('other', problem);
    const digits = card.number.replace(/[\s-]/g, '');
    const summary: CardSummary = {
      brand: cardBrand(digits),
      last4: digits.slice(-4),
      expMonth: card.exp_month,
      expYear: card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year,
    };
    const payload: Payload & { iat: number } = { ...summary, outcome: TEST_CARDS[digits] ?? 'declined', iat: this.clock().getTime() };
    const body = b64(JSON.stringify(payload));
    return { id: `tok_sbx_${body}.${this.sign(body)}`, card: summary };
  }

  private readToken(token: string): Payload {
    const m = /^tok_sbx_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(token);
    if (!m) throw new PaymentError('other', 'token');
    const [, body, sig] = m as unknown as [string, string, string];
    const want = Buffer.from(this.sign(body));
    const got = Buffer.from(sig);
    if (want.length !== got.length || !timingSafeEqual(want, got)) throw new PaymentError('other', 'token');
    const p = JSON.parse(unb64(body)) as Payload & { iat: number };
    if (this.clock().getTime() - p.iat > TOKEN_TTL_MS) throw new PaymentError('other', 'token');
    return { brand: p.brand, last4: p.last4, expMonth: p.expMonth, expYear: p.expYear, outcome: p.outcome };
  }

  async createCustomer(token: string): Promise<Customer> {
    const p = this.readToken(token);
    const ref = b64(JSON.stringify(p));
    return {
      customerId: `cus_sbx_${randomBytes(8).toString('hex')}`,
      paymentMethodId: `pm_sbx_${ref}`,
      card: { brand: p.brand, last4: p.last4, expMonth: p.expMonth, expYear: p.expYear },
    };
  }

  async charge(req: ChargeRequest): Promise<ChargeResult> {
    const seen = this.charges.get(req.idempotencyKey);
    if (seen) return seen;
    const result = this.decide(req);
    if (this.charges.size >= MAX_REMEMBERED_CHARGES) this.charges.delete(this.charges.keys().next().value as string);
    this.charges.set(req.idempotencyKey, result);
    return result;
  }

  private decide(req: ChargeRequest): ChargeResult {
    const chargeId = `ch_sbx_${randomBytes(10).toString('hex')}`;
    const m = /^pm_sbx_([A-Za-z0-9_-]+)$/.exec(req.customer.paymentMethodId);
    if (!m || !(req.amountCents > 0)) return { ok: false, code: 'other', chargeId: null };
    const p = JSON.parse(unb64(m[1] as string)) as Payload;
    if (expired(p.expMonth, p.expYear, this.clock())) return { ok: false, code: 'declined', chargeId };
    if (p.outcome === 'ok') return { ok: true, chargeId };
    return { ok: false, code: p.outcome === 'charge_fails' ? 'declined' : p.outcome, chargeId };
  }
}
