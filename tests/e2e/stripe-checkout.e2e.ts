// The Stripe checkout in real Chromium against the real server with STRIPE_* set: the app loads "Stripe.js"
// from STRIPE_JS_URL (a stand-in served by the local fake of Stripe's API, speaking to it as Stripe.js does:
// the card becomes a payment method, confirmCardPayment confirms the PaymentIntent with its client secret),
// a refused card keeps the dialog open with the bank's reason, then a good card buys the plan. The card
// number goes only to the fake Stripe, never to our server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type Running } from './harness';
import { FAKE_KEY, FAKE_PUBLISHABLE_KEY, startFakeStripe, type FakeStripe } from '../server/payments/fake-stripe';

/** Stripe.js's surface the checkout uses: elements().create('card').mount/on/focus/destroy and confirmCardPayment. */
const standInStripeJs = (api: string) => `
(function () {
  var API = ${JSON.stringify(api)};
  function form(o) { return new URLSearchParams(o).toString(); }
  window.Stripe = function (key) {
    function post(path, body) {
      return fetch(API + path, { method: 'POST', headers: { authorization: 'Bearer ' + key, 'content-type': 'application/x-www-form-urlencoded' }, body: form(body) })
        .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, json: j }; }); });
    }
    return {
      elements: function () {
        return {
          create: function () {
            var input = null, handlers = [];
            return {
              mount: function (el) {
                input = document.createElement('input');
                input.setAttribute('aria-label', 'Número de tarjeta de Stripe');
                input.addEventListener('input', function () {
                  var complete = input.value.replace(/\\D/g, '').length >= 15;
                  handlers.forEach(function (h) { h({ complete: complete }); });
                });
                el.appendChild(input);
              },
              on: function (ev, h) { if (ev === 'change') handlers.push(h); },
              focus: function () { if (input) input.focus(); },
              destroy: function () { if (input) input.remove(); },
              number: function () { return input ? input.value.replace(/\\D/g, '') : ''; },
            };
          },
        };
      },
      confirmCardPayment: function (secret, data) {
        var id = secret.split('_secret_')[0];
        return post('/v1/payment_methods', { type: 'card', 'card[number]': data.payment_method.card.number() }).then(function (pm) {
          if (!pm.ok) return { error: pm.json.error };
          return post('/v1/payment_intents/' + id + '/confirm', { client_secret: secret, payment_method: pm.json.id }).then(function (r) {
            return r.ok ? { paymentIntent: r.json } : { error: r.json.error };
          });
        });
      },
    };
  };
})();
`;

let fake: FakeStripe;
let app: Running;

beforeAll(async () => {
  fake = await startFakeStripe({ js: standInStripeJs });
  app = await startApp({
    STRIPE_SECRET_KEY: FAKE_KEY,
    STRIPE_PUBLISHABLE_KEY: FAKE_PUBLISHABLE_KEY,
    STRIPE_API_URL: fake.url,
    STRIPE_JS_URL: `${fake.url}/v3/`,
  });
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

describe('checkout with Stripe.js', () => {
  it('a declined card keeps the dialog with the reason; a good card buys the plan; the number never reaches our server', async () => {
    const user = await app.signUp('stripe_emma', 'XIQB891116QE4', { first_name: 'Emma', last_name: 'Gómez' });
    const { context, page } = await app.newContext({ width: 360, height: 780 });
    const toOurServer: string[] = [];
    page.on('request', (r) => {
      if (r.url().startsWith(app.url) && r.postData()) toOurServer.push(r.postData() ?? '');
    });
    await app.signIn(page, user.username, user.password);
    await page.goto(`${app.url}/#/plans`);
    const professional = page.getByRole('article', { name: 'Profesional' });
    await expect.poll(() => professional.getByRole('button', { name: 'Seleccionar' }).isVisible()).toBe(true);
    await professional.getByRole('button', { name: 'Seleccionar' }).click();

    const dialog = page.getByRole('dialog', { name: 'Pago con tarjeta' });
    const card = dialog.getByLabel('Número de tarjeta de Stripe');
    await expect.poll(() => card.isVisible(), { timeout: 30_000 }).toBe(true);
    // Our own card fields are not there: only Stripe's.
    expect(await dialog.getByLabel('CVC').count()).toBe(0);

    await card.fill('4000 0000 0000 0002');
    await dialog.getByRole('button', { name: /^Pagar/ }).click();
    const refusal = dialog.getByRole('alert').filter({ hasText: 'Tarjeta rechazada por el banco.' });
    await expect.poll(() => refusal.isVisible(), { timeout: 30_000 }).toBe(true);
    expect(page.url()).toContain('#/plans');

    await card.fill('4242 4242 4242 4242');
    await dialog.getByRole('button', { name: /^Pagar/ }).click();
    await page.waitForURL((u) => u.hash.startsWith('#/subscription'), { timeout: 30_000 });
    await expect.poll(() => page.getByText('Visa 4242').first().isVisible()).toBe(true);

    const intents = [...fake.intents.values()];
    expect(intents.map((i) => [i.status, i.amount, i.currency, i.setup_future_usage])).toEqual([
      ['requires_payment_method', 10324, 'mxn', 'off_session'],
      ['succeeded', 10324, 'mxn', 'off_session'],
    ]);
    // The card numbers went to Stripe from the browser, with the publishable key; the server used only the secret one.
    const numbers = fake.seen.filter((r) => r.form['card[number]']);
    expect(numbers.map((r) => [r.form['card[number]'], r.auth])).toEqual([
      ['4000000000000002', `Bearer ${FAKE_PUBLISHABLE_KEY}`],
      ['4242424242424242', `Bearer ${FAKE_PUBLISHABLE_KEY}`],
    ]);
    expect(fake.seen.filter((r) => r.auth === `Bearer ${FAKE_KEY}` && JSON.stringify(r.form).includes('4242424242424242'))).toEqual([]);
    expect(toOurServer.filter((body) => /4242\s?4242|0000\s?0002/.test(body))).toEqual([]);
    await context.close();
  });
});
