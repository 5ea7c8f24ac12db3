import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { exchangeRates, users } from '../../../src/server/db/schema';
import { banxicoRates, parseBanxico, setManualRate } from '../../../src/server/rates/rates';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

/** A stand-in for Banxico SIE: FIX of a week of November 2026 (Monday 16 was a holiday), one series per currency. */
function fakeBanxico() {
  const seen: { url: string; token: string | undefined }[] = [];
  let failing = false;
  const data: Record<string, { fecha: string; dato: string }[]> = {
    SF43718: [
      { fecha: '13/11/2026', dato: '17.1010' },
      { fecha: '16/11/2026', dato: 'N/E' },
      { fecha: '17/11/2026', dato: '17.2020' },
      { fecha: '18/11/2026', dato: '17.3030' },
      { fecha: '19/11/2026', dato: '17.4040' },
      { fecha: '20/11/2026', dato: '17.2345' },
    ],
    SF46410: [{ fecha: '20/11/2026', dato: '19.8765' }],
  };
  const server: Server = createServer((req: IncomingMessage, res) => {
    seen.push({ url: req.url ?? '', token: req.headers['bmx-token'] as string | undefined });
    if (failing) {
      res.writeHead(503).end('mantenimiento');
      return;
    }
    if (req.headers['bmx-token'] !== 'token-de-prueba') {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"mensaje":"Token inválido"}}');
      return;
    }
    const m = /^\/SieAPIRest\/service\/v1\/series\/(\w+)\/datos\/(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})$/.exec(req.url ?? '');
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    const [, serie, from, to] = m as unknown as [string, string, string, string];
    const iso = (f: string) => f.split('/').reverse().join('-');
    const datos = (data[serie] ?? []).filter((d) => iso(d.fecha) >= from && iso(d.fecha) <= to);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ bmx: { series: [{ idSerie: serie, titulo: 'Tipo de cambio FIX', ...(datos.length ? { datos } : {}) }] } }));
  });
  return {
    seen,
    setFailing: (f: boolean) => {
      failing = f;
    },
    start: () => new Promise<string>((ok) => server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}/SieAPIRest/service/v1`))),
    stop: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

describe('parseBanxico', () => {
  it('reads dd/mm/yyyy publications and skips N/E and junk', () => {
    const body = { bmx: { series: [{ idSerie: 'SF43718', datos: [{ fecha: '20/11/2026', dato: '17.2345' }, { fecha: '21/11/2026', dato: 'N/E' }, { fecha: 'ayer', dato: '1' }] }] } };
    expect([...parseBanxico(body)]).toEqual([['2026-11-20', 17.2345]]);
    expect(parseBanxico({}).size).toBe(0);
    expect(parseBanxico(null).size).toBe(0);
  });
});

describe.each(DRIVERS)('exchange rates on %s', (driver) => {
  let h: Harness;
  let staffToken: string;
  let userToken: string;
  const banxico = fakeBanxico();
  let banxicoUrl: string;
  beforeAll(async () => {
    banxicoUrl = await banxico.start();
    h = await createHarness(driver);
    userToken = (await h.signUp('tc')).token;
    const staff = await h.signUp('staff');
    await h.database.db.update(users).set({ isStaff: true }).where(eq(users.id, staff.userId));
    staffToken = staff.token;
  });
  afterAll(async () => {
    await h?.close();
    await banxico.stop();
  });

  const get = (query: string, token = userToken) => h.call('GET', `/api/v3/exchange_rates?${query}`, { token });

  /** No rate known: an ordinary answer (200, rate null), so the panel asks for the rate or the pesos and no 404 reaches the console. */
  const noRate = (base: string, date: string) => ({ response: { base, date, rate: null, source: null } });

  it('answers 200 with rate null when no rate is known (the user types the rate or the national amount)', async () => {
    const r = await get('base=USD&date=2026-10-14');
    expect(r.status).toBe(200);
    expect(r.json).toEqual(noRate('USD', '2026-10-14'));
  });

  it('lets only staff enter a rate by hand; everyone signed in can read it', async () => {
    const denied = await h.call('PUT', '/api/v3/exchange_rates', { token: userToken, body: { base: 'USD', date: '2026-10-09', rate: 18.5 } });
    expect(denied.status).toBe(403);
    expect(denied.json).toEqual({ errors: [MSG.forbidden] });
    expect((await get('base=USD&date=2026-10-09')).json).toEqual(noRate('USD', '2026-10-09'));

    const put = await h.call('PUT', '/api/v3/exchange_rates', { token: staffToken, body: { base: 'usd', date: '2026-10-09', rate: '18.4567' } });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ response: { base: 'USD', date: '2026-10-09', rate: 18.4567, source: 'manual' } });
    expect((await get('base=USD&date=2026-10-09')).json).toEqual({ response: { base: 'USD', date: '2026-10-09', rate: 18.4567, source: 'manual' } });
    // Saturday and Sunday use Friday's; more than 7 days later nothing is known.
    expect((await get('base=USD&date=2026/10/11')).json.response).toMatchObject({ date: '2026-10-09', rate: 18.4567 });
    expect((await get('base=USD&date=2026-10-17')).json).toEqual(noRate('USD', '2026-10-17'));
    // Another currency is another series.
    expect((await get('base=EUR&date=2026-10-09')).json).toEqual(noRate('EUR', '2026-10-09'));
    expect((await h.call('GET', '/api/v3/exchange_rates?base=USD&date=2026-10-09')).status).toBe(401);
  });

  it('validates the rate entry and the query', async () => {
    for (const body of [
      { base: 'MXN', date: '2026-10-09', rate: 1 },
      { base: 'ABC', date: '2026-10-09', rate: 1 },
    ]) {
      const r = await h.call('PUT', '/api/v3/exchange_rates', { token: staffToken, body });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ errors: [MSG.currencyInvalid] });
    }
    for (const rate of [0, -3, 'mucho']) {
      const r = await h.call('PUT', '/api/v3/exchange_rates', { token: staffToken, body: { base: 'USD', date: '2026-10-09', rate } });
      expect(r.json).toEqual({ errors: [MSG.rateInvalid] });
    }
    expect((await h.call('PUT', '/api/v3/exchange_rates', { token: staffToken, body: { base: 'USD', date: '2026-02-30', rate: 1 } })).json).toEqual({
      errors: [MSG.dateInvalid],
    });
    expect((await get('base=XYZ&date=2026-10-09')).json).toEqual({ errors: [MSG.currencyInvalid] });
    expect((await get('base=USD&date=ayer')).json).toEqual({ errors: [MSG.dateInvalid] });
    expect((await get('date=2026-10-09')).json).toEqual({ errors: [MSG.fieldMissing.replace('{campo}', 'base')] });
    expect((await get('base=USD&date=')).status).toBe(200); // an empty date is today's, like none
    expect((await get('base=MXN&date=2026-10-09')).json.response).toMatchObject({ base: 'MXN', rate: 1 });
    const nextYear = `${new Date().getUTCFullYear() + 1}-01-01`;
    const future = await get(`base=USD&date=${nextYear}`);
    expect(future.status).toBe(200);
    expect(future.json).toEqual(noRate('USD', nextYear));
  });

  it('BanxicoRates: asks SIE with Bmx-Token, uses the last publication within 7 days, caches it, keeps staff entries', async () => {
    await setManualRate(h.database.db, 'USD', '2026-11-19', 18, new Date());
    const rates = banxicoRates(h.database.db, { token: 'token-de-prueba', url: banxicoUrl });
    banxico.seen.length = 0;

    // Saturday 21: Friday 20's FIX.
    expect(await rates.rateFor('USD', '2026-11-21')).toEqual({ base: 'USD', date: '2026-11-20', rate: 17.2345, source: 'banxico' });
    expect(banxico.seen).toEqual([{ url: '/SieAPIRest/service/v1/series/SF43718/datos/2026-11-14/2026-11-21', token: 'token-de-prueba' }]);

    // Cached: a day it fetched is answered from the table.
    expect(await rates.rateFor('USD', '2026-11-18')).toEqual({ base: 'USD', date: '2026-11-18', rate: 17.303, source: 'banxico' });
    expect(banxico.seen).toHaveLength(1);
    const stored = await h.database.db.select().from(exchangeRates).where(eq(exchangeRates.base, 'USD'));
    expect(stored.map((r) => r.date).sort()).toEqual(expect.arrayContaining(['2026-11-17', '2026-11-18', '2026-11-20']));
    expect(stored.map((r) => r.date)).not.toContain('2026-11-16');
    // The staff entry of the 19th was not overwritten by Banxico's.
    expect(await rates.rateFor('USD', '2026-11-19')).toEqual({ base: 'USD', date: '2026-11-19', rate: 18, source: 'manual' });

    // Monday 16 (holiday, N/E): Friday 13's.
    expect((await rates.rateFor('USD', '2026-11-16'))?.date).toBe('2026-11-13');
    // Another currency, another series.
    expect(await rates.rateFor('EUR', '2026-11-22')).toMatchObject({ date: '2026-11-20', rate: 19.8765 });
    expect(banxico.seen.at(-1)?.url).toBe('/SieAPIRest/service/v1/series/SF46410/datos/2026-11-15/2026-11-22');
    // Nothing published in the window.
    expect(await rates.rateFor('GBP', '2026-11-20')).toBeNull();
    expect(banxico.seen.at(-1)?.url).toContain('/series/SF46407/');
    const [gbp] = await h.database.db.select().from(exchangeRates).where(and(eq(exchangeRates.base, 'GBP')));
    expect(gbp).toBeUndefined();
  });

  it('BanxicoRates: a wrong token or an outage falls back to what the table knows', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const wrong = banxicoRates(h.database.db, { token: 'otro', url: banxicoUrl });
    expect(await wrong.rateFor('CAD', '2026-11-20')).toBeNull();
    expect(banxico.seen.at(-1)).toMatchObject({ token: 'otro' });
    banxico.setFailing(true);
    try {
      const down = banxicoRates(h.database.db, { token: 'token-de-prueba', url: banxicoUrl });
      expect(await down.rateFor('USD', '2026-11-22')).toEqual({ base: 'USD', date: '2026-11-20', rate: 17.2345, source: 'banxico' });
      expect(logged.mock.calls.map((c) => String(c[1]))).toEqual(['Banxico respondió 401', 'Banxico respondió 503']);
    } finally {
      banxico.setFailing(false);
      logged.mockRestore();
    }
  });

  it('uses Banxico through the API when BANXICO_TOKEN is configured', async () => {
    const hb = await createHarness(driver, { banxicoToken: 'token-de-prueba', banxicoUrl });
    try {
      const u = await hb.signUp('bx');
      const r = await hb.call('GET', '/api/v3/exchange_rates?base=USD&date=2026-11-20', { token: u.token });
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ response: { base: 'USD', date: '2026-11-20', rate: 17.2345, source: 'banxico' } });
    } finally {
      await hb.close();
    }
  });
});
