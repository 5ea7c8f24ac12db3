// A local stand-in for the Stripe REST calls the adapter makes (payment_methods, customers, payment_intents)
// and for the ones Stripe.js makes from the browser with the publishable key (a card to a payment method,
// confirming a PaymentIntent, reading it back), with 3-D Secure: a card that needs it leaves the intent in
// requires_action until the test (standing in for the bank's challenge page) passes or fails it.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  path: string;
  auth: string | undefined;
  idem: string | undefined;
  form: Record<string, string>;
}

export const FAKE_KEY = 'sk_test_local';
export const FAKE_PUBLISHABLE_KEY = 'pk_test_local';

const read = (req: IncomingMessage) =>
  new Promise<string>((ok) => {
    let s = '';
    req.on('data', (c: Buffer) => (s += c.toString()));
    req.on('end', () => ok(s));
  });

type Outcome = 'ok' | 'card_declined' | 'insufficient_funds' | '3ds';

// pm id → card and what a charge does; tok_<x> becomes pm_<x>.
const CARDS: Record<string, { brand: string; last4: string; outcome: Outcome }> = {
  pm_ok: { brand: 'visa', last4: '4242', outcome: 'ok' },
  pm_declined: { brand: 'visa', last4: '0341', outcome: 'card_declined' },
  pm_funds: { brand: 'mastercard', last4: '9995', outcome: 'insufficient_funds' },
  pm_3ds: { brand: 'visa', last4: '3184', outcome: '3ds' },
};

/** Stripe's test numbers, as Stripe.js would turn them into payment methods. */
export const TEST_NUMBERS: Record<string, string> = {
  '4242424242424242': 'pm_ok',
  '4000000000000002': 'pm_declined',
  '4000000000009995': 'pm_funds',
  '4000002760003184': 'pm_3ds',
};

export interface FakeIntent {
  id: string;
  object: 'payment_intent';
  client_secret: string;
  status: string;
  amount: number;
  currency: string;
  customer: string | null;
  payment_method: string | null;
  latest_charge: string | null;
  setup_future_usage: string | null;
  metadata: Record<string, string>;
  next_action: unknown;
  last_payment_error: { type: string; code: string; decline_code: string; payment_method: string } | null;
}

export interface FakeStripe {
  url: string;
  seen: Seen[];
  intents: Map<string, FakeIntent>;
  /** The bank's 3-D Secure page: the holder passes (or fails) the challenge of this intent. */
  finish3ds(id: string, pass: boolean): FakeIntent;
  /** An intent as GET /v1/payment_intents/{id}?expand[]=payment_method answers it (what a webhook event carries, unexpanded). */
  view(intent: FakeIntent, expand: boolean): Record<string, unknown>;
  close(): Promise<void>;
}

const pmObject = (id: string) => {
  const c = CARDS[id];
  return { id, object: 'payment_method', card: c ? { brand: c.brand, last4: c.last4, exp_month: 12, exp_year: 2034 } : {} };
};

const metadataOf = (form: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(form)
      .filter(([k]) => k.startsWith('metadata['))
      .map(([k, v]) => [k.slice('metadata['.length, -1), v]),
  );

/** `js`: a stand-in Stripe.js served at /v3/ from the fake's own origin (the e2e points STRIPE_JS_URL at it). */
export async function startFakeStripe(options: { js?: (apiUrl: string) => string } = {}): Promise<FakeStripe> {
  const seen: Seen[] = [];
  const intents = new Map<string, FakeIntent>();
  let customers = 0;
  let charges = 0;

  const view = (pi: FakeIntent, expand: boolean): Record<string, unknown> => ({
    ...pi,
    payment_method: pi.payment_method && expand ? pmObject(pi.payment_method) : pi.payment_method,
    last_payment_error: pi.last_payment_error
      ? { ...pi.last_payment_error, payment_method: expand ? pmObject(pi.last_payment_error.payment_method) : pi.last_payment_error.payment_method }
      : null,
  });

  /** Confirming with a card: charged, refused, or waiting for 3-D Secure. */
  const confirm = (pi: FakeIntent, pm: string): { status: number; json: unknown } => {
    const card = CARDS[pm];
    pi.payment_method = pm;
    pi.last_payment_error = null;
    if (card?.outcome === '3ds' && pi.status !== 'requires_action') {
      pi.status = 'requires_action';
      pi.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } };
      return { status: 200, json: view(pi, false) };
    }
    if (card?.outcome === 'ok' || card?.outcome === '3ds') {
      pi.status = 'succeeded';
      pi.next_action = null;
      pi.latest_charge = `ch_${++charges}`;
      return { status: 200, json: view(pi, false) };
    }
    const decline = card?.outcome === 'insufficient_funds' ? 'insufficient_funds' : 'generic_decline';
    pi.status = 'requires_payment_method';
    pi.payment_method = null;
    pi.latest_charge = `ch_${++charges}`;
    pi.last_payment_error = { type: 'card_error', code: 'card_declined', decline_code: decline, payment_method: pm };
    return { status: 402, json: { error: { type: 'card_error', code: 'card_declined', decline_code: decline, payment_intent: view(pi, false) } } };
  };

  const server: Server = createServer(async (req, res) => {
    const body = await read(req);
    const url = new URL(req.url ?? '/', 'http://fake');
    const form: Record<string, string> = { ...Object.fromEntries(url.searchParams), ...Object.fromEntries(new URLSearchParams(body)) };
    const path = url.pathname;
    seen.push({ method: req.method ?? '', path, auth: req.headers.authorization, idem: req.headers['idempotency-key'] as string | undefined, form });
    const send = (status: number, json: unknown) => {
      // Stripe's API answers browsers from any origin (Stripe.js calls it from the shop's page).
      res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization, content-type' });
      res.end(JSON.stringify(json));
    };
    if (req.method === 'OPTIONS') return send(204, {});
    if (req.method === 'GET' && path === '/v3/' && options.js) {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(options.js(`http://${req.headers.host}`));
    }
    const secret = req.headers.authorization === `Bearer ${FAKE_KEY}`;
    const publishable = req.headers.authorization === `Bearer ${FAKE_PUBLISHABLE_KEY}` || form.key === FAKE_PUBLISHABLE_KEY;
    if (!secret && !publishable) return send(401, { error: { type: 'invalid_request_error' } });
    const piPath = /^\/v1\/payment_intents\/(pi_\w+?)(\/confirm)?$/.exec(path);
    const pi = piPath ? intents.get(piPath[1] as string) : undefined;
    // With the publishable key only what Stripe.js may do: its own card, and an intent whose client secret it holds.
    if (!secret) {
      if (req.method === 'POST' && path === '/v1/payment_methods' && form['card[number]']) {
        const id = TEST_NUMBERS[form['card[number]']];
        if (!id) return send(402, { error: { type: 'card_error', code: 'incorrect_number' } });
        return send(200, pmObject(id));
      }
      if (!pi || form.client_secret !== pi.client_secret) return send(404, { error: { type: 'invalid_request_error' } });
      if (req.method === 'POST' && piPath?.[2]) return sendResult(confirm(pi, form.payment_method ?? ''));
      if (req.method === 'GET') return send(200, view(pi, false));
      return send(404, { error: { type: 'invalid_request_error' } });
    }
    function sendResult(r: { status: number; json: unknown }) {
      send(r.status, r.json);
    }
    if (req.method === 'POST' && path === '/v1/payment_methods') {
      if (form['card[token]'] === 'tok_chargeDeclined') {
        return send(402, { error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline' } });
      }
      const pm = `pm_${(form['card[token]'] ?? '').replace(/^tok_/, '')}`;
      return send(200, { id: CARDS[pm] ? pm : 'pm_ok', object: 'payment_method' });
    }
    if (req.method === 'POST' && path === '/v1/customers') return send(200, { id: `cus_${++customers}`, email: form.email });
    const pm = /^\/v1\/payment_methods\/(pm_\w+)$/.exec(path);
    if (req.method === 'GET' && pm) {
      const c = CARDS[pm[1] as string];
      if (!c) return send(404, { error: { type: 'invalid_request_error' } });
      return send(200, pmObject(pm[1] as string));
    }
    if (req.method === 'GET' && piPath && !piPath[2]) {
      if (!pi) return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing' } });
      return send(200, view(pi, (form['expand[0]'] ?? url.searchParams.getAll('expand[]').join(',')).includes('payment_method')));
    }
    if (req.method === 'POST' && path === '/v1/payment_intents' && form.confirm !== 'true') {
      const id = `pi_${intents.size + 1}`;
      const intent: FakeIntent = {
        id,
        object: 'payment_intent',
        client_secret: `${id}_secret_${Math.random().toString(36).slice(2)}`,
        status: 'requires_payment_method',
        amount: Number(form.amount),
        currency: form.currency ?? '',
        customer: form.customer ?? null,
        payment_method: null,
        latest_charge: null,
        setup_future_usage: form.setup_future_usage ?? null,
        metadata: metadataOf(form),
        next_action: null,
        last_payment_error: null,
      };
      intents.set(id, intent);
      return send(200, intent);
    }
    if (req.method === 'POST' && path === '/v1/payment_intents') {
      const c = CARDS[form.payment_method ?? ''];
      if (c?.outcome === 'ok') return send(200, { id: `pi_${seen.length}`, status: 'succeeded', latest_charge: `ch_${seen.length}` });
      return send(402, {
        error: {
          type: 'card_error',
          code: 'card_declined',
          decline_code: c?.outcome === 'insufficient_funds' ? 'insufficient_funds' : 'generic_decline',
          charge: 'ch_failed',
          payment_intent: { id: 'pi_failed' },
        },
      });
    }
    return send(404, { error: { type: 'invalid_request_error' } });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    intents,
    view,
    finish3ds(id, pass) {
      const intent = intents.get(id);
      if (!intent || intent.status !== 'requires_action') throw new Error(`${id} no espera 3-D Secure`);
      if (pass) confirm(intent, intent.payment_method ?? '');
      else {
        intent.status = 'requires_payment_method';
        intent.last_payment_error = { type: 'card_error', code: 'payment_intent_authentication_failure', decline_code: '', payment_method: intent.payment_method ?? '' };
        intent.payment_method = null;
      }
      return intent;
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
