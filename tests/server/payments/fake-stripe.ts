// A local stand-in for the Stripe REST calls the adapter makes (payment_methods, customers, payment_intents).
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

const read = (req: IncomingMessage) =>
  new Promise<string>((ok) => {
    let s = '';
    req.on('data', (c: Buffer) => (s += c.toString()));
    req.on('end', () => ok(s));
  });

// pm id → card and what a charge does; tok_<x> becomes pm_<x>.
const CARDS: Record<string, { brand: string; last4: string; outcome: 'ok' | 'card_declined' | 'insufficient_funds' }> = {
  pm_ok: { brand: 'visa', last4: '4242', outcome: 'ok' },
  pm_declined: { brand: 'visa', last4: '0341', outcome: 'card_declined' },
  pm_funds: { brand: 'mastercard', last4: '9995', outcome: 'insufficient_funds' },
};

export async function startFakeStripe(): Promise<{ url: string; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  let customers = 0;
  const server: Server = createServer(async (req, res) => {
    const body = await read(req);
    const form = Object.fromEntries(new URLSearchParams(body));
    const path = req.url ?? '';
    seen.push({ method: req.method ?? '', path, auth: req.headers.authorization, idem: req.headers['idempotency-key'] as string | undefined, form });
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    if (req.headers.authorization !== `Bearer ${FAKE_KEY}`) return send(401, { error: { type: 'invalid_request_error' } });
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
      return send(200, { id: pm[1], card: { brand: c.brand, last4: c.last4, exp_month: 12, exp_year: 2034 } });
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
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
