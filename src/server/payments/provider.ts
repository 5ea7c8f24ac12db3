// The payment-provider port: turn a card token into a reusable customer, then charge it. Card numbers
// never reach our server or database: only the provider's ids and the card's brand, last 4 and expiry.
import type { DeclineCode } from '../../domain/payment-card';

export interface CardSummary {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface Customer {
  customerId: string;
  paymentMethodId: string;
  card: CardSummary;
}

/** Why a charge or a card was refused: the adapters map their provider's codes to these (domain/payment-card.ts says them in Spanish). */
export type ChargeFailure = DeclineCode;

export type ChargeResult =
  | { ok: true; chargeId: string }
  | { ok: false; code: ChargeFailure; /** The provider's id for the refused attempt, when it made one. */ chargeId: string | null };

export interface ChargeRequest {
  customer: Pick<Customer, 'customerId' | 'paymentMethodId'>;
  /** In centavos (MXN × 100). */
  amountCents: number;
  description: string;
  /** Same key, same charge: a retried request never charges twice. */
  idempotencyKey: string;
}

/** A refused card or token at customer creation (before any charge). */
export class PaymentError extends Error {
  constructor(readonly code: ChargeFailure, message: string = code) {
    super(message);
  }
}

export interface PaymentProvider {
  readonly name: 'sandbox' | 'stripe';
  /** Throws PaymentError when the token is invalid, expired or its card is refused. */
  createCustomer(token: string, email: string): Promise<Customer>;
  /** Never throws for a refused card (answers ok: false); throws only when the provider cannot be reached. */
  charge(req: ChargeRequest): Promise<ChargeResult>;
}
