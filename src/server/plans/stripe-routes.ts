// Stripe's HTTP side (only with STRIPE_SECRET_KEY): the checkout's PaymentIntent (with STRIPE_PUBLISHABLE_KEY,
// for Stripe.js in the browser) and the signed webhook (with STRIPE_WEBHOOK_SECRET).
import type { Hono } from 'hono';
import * as v from 'valibot';
import { MSG } from '../../domain/messages';
import type { AppEnv, Services } from '../context';
import { caller, requireAuth } from '../http/auth';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { defineRoute } from '../http/route';
import type { StripeProvider } from '../payments/stripe';
import { verifyStripeSignature } from '../payments/stripe-signature';
import type { CollaboratorCounter } from './pricing';
import { startCheckout, type CheckoutDeps } from './stripe-checkout';
import { handleStripeEvent } from './stripe-events';

const Id = (msg: string) => v.pipe(v.number(msg), v.integer(msg), v.minValue(0, msg), v.maxValue(2_147_483_647, msg));

export const IntentBody = v.object(
  { subscription: v.object({ plan_id: Id(MSG.badSubscription), client_id: Id(MSG.badSubscription) }, MSG.badSubscription) },
  MSG.badSubscription,
);

/** The part of a Stripe event we read: its id (once per id), its type and the object it is about. */
const EventBody = v.object(
  { id: v.string(MSG.badJson), type: v.string(MSG.badJson), data: v.object({ object: v.record(v.string(), v.unknown()) }, MSG.badJson) },
  MSG.badJson,
);

/** Stripe's events are a few kilobytes; anything this big is not one of them. */
export const WEBHOOK_BODY_LIMIT = 256 * 1024;

/** The refusal of an unsigned, forged or stale webhook (Stripe only logs it). */
export const BAD_SIGNATURE = 'Firma de Stripe no válida.';

export interface StripeRoutesOptions {
  stripe: StripeProvider;
  collaborators: CollaboratorCounter;
  publishableKey?: string;
  webhookSecret?: string;
}

export function stripeRoutes(app: Hono<AppEnv>, s: Services, o: StripeRoutesOptions): void {
  const deps: CheckoutDeps = { db: s.db, mailer: s.mailer, appUrl: s.config.publicUrl, stripe: o.stripe };
  if (o.publishableKey) {
    defineRoute(app, {
      method: 'post', path: '/api/v3/payments/stripe/intents.json', tag: 'Planes y pagos', auth: true, body: IntentBody, errors: [404, 422],
      summary: 'Abrir el pago con Stripe de un plan para una cuenta propia: crea un PaymentIntent (precio × meses × 1.16 en centavos MXN, la tarjeta queda guardada para las renovaciones) y responde su client_secret para confirmarlo con Stripe.js; después se manda su id como token a /api/v3/subscriptions.json',
      response: v.object({ payment_intent: v.object({ id: v.string(), client_secret: v.string(), amount_cents: v.number() }) }),
    }, requireAuth(s), async (c, { body }) => {
      const made = await startCheckout(
        { ...deps, collaborators: o.collaborators },
        { userId: caller(c).userId, clientId: body.subscription.client_id, planId: body.subscription.plan_id, now: s.clock() },
      );
      return ok(c, { payment_intent: { id: made.id, client_secret: made.clientSecret, amount_cents: made.amountCents } });
    });
  }
  if (o.webhookSecret) {
    const secret = o.webhookSecret;
    defineRoute(app, {
      method: 'post', path: '/api/v3/payments/stripe/webhook', tag: 'Planes y pagos', auth: false, errors: [413],
      summary: 'Webhook de Stripe (firmado con STRIPE_WEBHOOK_SECRET; 400 si la firma no es válida o tiene más de 5 minutos): payment_intent.succeeded y payment_intent.payment_failed terminan un pago con tarjeta, charge.dispute.created anota la disputa y detiene las renovaciones. Cada evento se aplica una sola vez',
      body: EventBody,
      // The signature covers the exact bytes Stripe sent: it is checked on them before the body is read as an event.
      guard: (c) => {
        const raw = c.get('rawBody');
        if (Number(c.req.header('content-length') ?? '0') > WEBHOOK_BODY_LIMIT || Buffer.byteLength(raw) > WEBHOOK_BODY_LIMIT) throw fail(413, MSG.bodyTooLarge);
        if (!verifyStripeSignature(c.req.header('stripe-signature'), raw, secret, s.clock().getTime())) throw fail(400, BAD_SIGNATURE);
      },
      response: v.object({ received: v.boolean(), duplicate: v.boolean() }),
    }, async (c, { body }) => {
      const done = await handleStripeEvent(deps, body, s.clock());
      return ok(c, { received: true, duplicate: done === 'duplicate' });
    });
  }
}
