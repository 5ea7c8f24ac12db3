// Plans and payments HTTP: which card checkout the app shows, the sandbox card tokeniser (public, like a
// publishable key), Stripe's checkout and webhook (stripe-routes.ts), and subscribing.
import { and, eq } from 'drizzle-orm';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { MSG } from '../../domain/messages';
import { DECLINE_CODES, declineReason } from '../../domain/payment-card';
import { paymentHistories } from '../lib/account-view';
import type { AppDeps, AppEnv, Services } from '../context';
import { clients } from '../db/schema';
import { caller, requireAuth } from '../http/auth';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { PaymentError, type PaymentProvider } from '../payments/provider';
import { SandboxProvider } from '../payments/sandbox';
import { paymentProviderFromEnv } from '../payments/select';
import { StripeProvider } from '../payments/stripe';
import { readStripeEnv } from '../config';
import { completeCheckout } from './stripe-checkout';
import { stripeRoutes } from './stripe-routes';
import { activeCollaboratorCounter } from './collaborator-count';
import type { CollaboratorCounter } from './pricing';
import { cancelSubscription, resumeSubscription, subscriptionState } from './cancel';
import { ChargeDeclined, subscribe } from './subscribe';
import { PaymentHistoryItem } from '../openapi/responses';
import { defineRoute, pathParam } from '../http/route';

// The OpenAPI descriptions of its answers.
const Card = v.object({ brand: v.string(), last4: v.string(), exp_month: v.number(), exp_year: v.number() });

const Id = (msg: string) => v.pipe(v.number(msg), v.integer(msg), v.minValue(0, msg), v.maxValue(2_147_483_647, msg));

export const SubscribeBody = v.object(
  {
    subscription: v.object(
      {
        plan_id: Id(MSG.badSubscription),
        client_id: Id(MSG.badSubscription),
        token: v.pipe(v.string(MSG.badSubscription), v.minLength(1, MSG.badSubscription), v.maxLength(2_000, MSG.badSubscription)),
      },
      MSG.badSubscription,
    ),
  },
  MSG.badSubscription,
);

export const TokenBody = v.object(
  {
    card: v.object(
      {
        number: v.pipe(v.string(MSG.badCard), v.maxLength(32, MSG.badCard)),
        exp_month: v.pipe(v.number(MSG.badCard), v.integer(MSG.badCard)),
        exp_year: v.pipe(v.number(MSG.badCard), v.integer(MSG.badCard)),
        cvc: v.pipe(v.string(MSG.badCard), v.maxLength(4, MSG.badCard)),
      },
      MSG.badCard,
    ),
  },
  MSG.badCard,
);

/** A person retrying a card a few times is fine; a script testing stolen numbers is not. */
const TOKENS_PER_IP = { limit: 20, windowMs: 10 * 60_000 };

export interface PlansOptions {
  provider?: PaymentProvider;
  collaborators?: CollaboratorCounter;
  /** Stripe's keys and Stripe.js's address (default: read from the environment, config.ts). */
  stripe?: ReturnType<typeof readStripeEnv>;
}

const CheckoutConfig = v.object({
  provider: v.picklist(['sandbox', 'stripe']),
  stripe: v.nullable(v.object({ publishable_key: v.string(), js_url: v.string() })),
});

export function plansRoutes(s: Services, _deps: AppDeps, opts: PlansOptions = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const provider = opts.provider ?? paymentProviderFromEnv(s.clock);
  const collaborators = opts.collaborators ?? activeCollaboratorCounter(s.db);
  const stripeEnv = opts.stripe ?? readStripeEnv();
  const stripe = provider instanceof StripeProvider ? provider : null;
  // Stripe.js needs the publishable key: without it a Stripe server has no card form to offer.
  const stripeJs = stripe && stripeEnv.publishableKey ? { publishable_key: stripeEnv.publishableKey, js_url: stripeEnv.jsUrl } : null;
  defineRoute(app, {
    method: 'get', path: '/api/v3/payments/config.json', tag: 'Planes y pagos', auth: false,
    summary: 'Cómo se paga con tarjeta: sandbox (el tokenizador de prueba) o stripe (con la llave publicable y la dirección de Stripe.js; null si falta STRIPE_PUBLISHABLE_KEY)',
    response: CheckoutConfig,
  }, (c) => {
    // The same for everyone and changed only by a restart.
    c.header('Cache-Control', 'public, max-age=300');
    return ok(c, { provider: provider.name, stripe: stripeJs });
  });
  if (stripe) stripeRoutes(app, s, { stripe, collaborators, publishableKey: stripeEnv.publishableKey, webhookSecret: stripeEnv.webhookSecret });
  const tokens = s.limits('plans-card-tokens', TOKENS_PER_IP.limit, TOKENS_PER_IP.windowMs);

  // Only the sandbox tokenises here: with Stripe the card goes from the browser to Stripe.js directly.
  if (provider instanceof SandboxProvider) {
    // 20 per address before the card is even read.
    const tokenLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
      const now = s.clock().getTime();
      if (!(await tokens.take(c.get('ip'), now))) {
        throw fail(429, MSG.tooManyTokens, { 'Retry-After': String(tokens.retryAfter(c.get('ip'), now)) });
      }
      return next();
    };
    defineRoute(app, {
      method: 'post', path: '/api/v3/payments/sandbox/tokens', tag: 'Planes y pagos', auth: false, body: TokenBody, errors: [429],
      summary: 'Tokenizar una tarjeta de prueba con el proveedor sandbox (solo sin STRIPE_SECRET_KEY): 4242… se cobra, 4000 0000 0000 0002 se rechaza, 4000 0000 0000 9995 no tiene fondos. Responde un token; el número nunca se guarda. 20 por IP cada 10 minutos',
      response: v.object({ id: v.string(), card: Card }),
    }, tokenLimit, async (c, { body }) => {
      try {
        const t = provider.tokenize(body.card);
        return ok(c, {
          id: t.id,
          card: { brand: t.card.brand, last4: t.card.last4, exp_month: t.card.expMonth, exp_year: t.card.expYear },
        });
      } catch (err) {
        if (err instanceof PaymentError) throw fail(400, err.message);
        throw err;
      }
    });
  }

  defineRoute(app, {
    method: 'post', path: '/api/v3/subscriptions.json', tag: 'Planes y pagos', auth: true, body: SubscribeBody, errors: [402, 404, 409, 422],
    summary: `Contratar un plan para una cuenta propia con el token de la tarjeta (con Stripe: el id pi_… del PaymentIntent ya confirmado con Stripe.js, que se verifica con Stripe; 409 si el banco aún no lo confirma): cobra precio × meses × 1.16 (empresariales: más 89 por colaborador activo), guarda el intento en el historial y, si se cobró, activa el plan. 402 con el mensaje de cargo fallido, decline_code (${DECLINE_CODES.join(', ')}) y decline_reason en español`,
    response: v.object({ subscription: v.object({ client_id: v.number(), plan_id: v.number(), payment_id: v.string(), active_until: v.string() }) }),
  }, requireAuth(s), async (c, input) => {
    const body = input.body.subscription;
    let done;
    const who = { userId: caller(c).userId, clientId: body.client_id, planId: body.plan_id, now: s.clock() };
    try {
      // A pi_… is a PaymentIntent the browser confirmed with Stripe.js: Stripe says whether it was paid.
      done = stripe && body.token.startsWith('pi_')
        ? await completeCheckout({ db: s.db, mailer: s.mailer, appUrl: s.config.publicUrl, stripe }, { ...who, intentId: body.token })
        : await subscribe({ db: s.db, provider, mailer: s.mailer, collaborators, appUrl: s.config.publicUrl }, { ...who, token: body.token });
    } catch (err) {
      // The spec's message, plus why the bank said no: the checkout shows the reason and keeps the card.
      if (err instanceof ChargeDeclined) {
        return c.json({ errors: err.messages, decline_code: err.code, decline_reason: declineReason(err.code) }, 402);
      }
      throw err;
    }
    return ok(c, {
      subscription: { client_id: body.client_id, plan_id: body.plan_id, payment_id: done.paymentId, active_until: done.until.toISOString() },
    });
  });

  // The payment history of one of the caller's accounts (also in the account JSON as payment_history).
  defineRoute(app, {
    method: 'get', path: '/api/v3/subscriptions/{client}/payments.json', tag: 'Planes y pagos', auth: true, errors: [404],
    params: { client: '*diverza_client_id de una cuenta propia' },
    summary: 'Historial de pagos de una cuenta propia (también en payment_history de /user_clients), el más reciente primero',
    response: v.array(PaymentHistoryItem),
  }, requireAuth(s), async (c) => {
    const id = Number(c.req.param('client'));
    if (!Number.isSafeInteger(id) || id <= 0) throw fail(404, MSG.notFound);
    const [own] = await s.db
      .select({ id: clients.id })
      .from(clients)
      .where(and(eq(clients.id, id), eq(clients.userId, caller(c).userId)))
      .limit(1);
    if (!own) throw fail(404, MSG.notFound);
    return ok(c, (await paymentHistories(s.db, [id])).get(id) ?? []);
  });

  cancellationRoutes(app, s);
  return app;
}

const SubscriptionState = v.object({
  client_id: v.number(),
  plan_id: v.number(),
  status: v.picklist(['none', 'active', 'past_due', 'canceling', 'canceled']),
  current_period_end: v.nullable(v.string()),
  cancel_at_period_end: v.boolean(),
});

/** The paid plan's state, cancelling it at the end of the period, and undoing that: the owner's alone. */
function cancellationRoutes(app: Hono<AppEnv>, s: Services): void {
  const params = { client: '*diverza_client_id de una cuenta propia' };
  const client = (c: Context<AppEnv>) => Number(pathParam(c, 'client'));
  defineRoute(app, {
    method: 'get', path: '/api/v3/subscriptions/{client}/current.json', tag: 'Planes y pagos', auth: true, errors: [404], params,
    summary: 'La suscripción de una cuenta propia: estado (none, active, past_due, canceling, canceled), fin del periodo pagado y si termina ahí (cancelada)',
    response: SubscriptionState,
  }, requireAuth(s), async (c) => ok(c, await subscriptionState(s.db, caller(c).userId, client(c))));

  defineRoute(app, {
    method: 'post', path: '/api/v3/subscriptions/{client}/cancellation.json', tag: 'Planes y pagos', auth: true, errors: [404, 422], params,
    summary: 'Cancelar el plan de pago de una cuenta propia: sigue vigente hasta el fin del periodo pagado, no se renueva y después la cuenta pasa al plan Gratuito. Idempotente; si la renovación ya había fallado, termina ahora',
    response: SubscriptionState,
  }, requireAuth(s), async (c) => ok(c, await cancelSubscription(s.db, caller(c).userId, client(c), s.clock())));

  defineRoute(app, {
    method: 'delete', path: '/api/v3/subscriptions/{client}/cancellation.json', tag: 'Planes y pagos', auth: true, errors: [404, 422], params,
    summary: 'Deshacer la cancelación antes del fin del periodo pagado: el plan vuelve a renovarse. Idempotente; 422 si el plan ya terminó',
    response: SubscriptionState,
  }, requireAuth(s), async (c) => ok(c, await resumeSubscription(s.db, caller(c).userId, client(c), s.clock())));
}
