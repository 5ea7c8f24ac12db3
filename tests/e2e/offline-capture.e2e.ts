// Offline capture end to end: capture offline (spendings, an income, an image, a tag, a note), close the
// page, reopen offline, reconnect, and find each operation on the server exactly once; then cut
// the network in the middle of a replay (aborted requests, responses lost after the commit).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Request } from 'playwright-core';
import { mexicoCityDate } from '../../src/domain/mexico-time';
import { DB_NAME } from '../../src/offline/db-name';
import type { Ticket } from '../../src/domain/ticket';
import { startApp, waitForServiceWorker, type Running } from './harness';

// A real 1×1 PNG: the server checks magic bytes, not names.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const RFC = 'OFFL850101AB1';

let app: Running;
let user: { username: string; password: string; token: string };
beforeAll(async () => {
  app = await startApp();
  user = await app.signUp('captura_offline', RFC, { first_name: 'Olga', last_name: 'Flores Lara' });
});
afterAll(async () => {
  await app?.stop();
});

async function serverTickets(): Promise<Ticket[]> {
  const { year, month } = mexicoCityDate();
  const res = await app.api(`/api/v2/tickets?usuario[rfc_owner]=${RFC}&date[year]=${year}&date[month]=${month}`, { token: user.token });
  expect(res.status).toBe(200);
  return (res.body as { response: { tickets: Ticket[] } }).response.tickets;
}

/** The outbox as the device holds it: what a failure message needs to say why something did not arrive. */
async function outboxRows(page: Page): Promise<string> {
  return page.evaluate((name) => new Promise<string>((resolve) => {
    const open = indexedDB.open(name);
    open.onerror = () => resolve('sin base local');
    open.onsuccess = () => {
      // A database without the table was made anew (wiped): say so rather than hang.
      if (!open.result.objectStoreNames.contains('outbox')) return resolve('base local sin outbox (borrada)');
      const all = open.result.transaction('outbox').objectStore('outbox').getAll();
      all.onsuccess = () => resolve(JSON.stringify((all.result as Record<string, unknown>[]).map(
        ({ seq, kind, status, attempts, nextAttemptAt, leaseUntil, lastStatus, lastError }) =>
          ({ seq, kind, status, attempts, nextAttemptAt, leaseUntil, lastStatus, lastError, now: Date.now() }))));
    };
  }), DB_NAME);
}

/** The server's tickets in a line each: what a failure message needs to say where an edit went. */
async function serverSummary(): Promise<string> {
  return (await serverTickets()).map((t) => `${t.amount} «${t.note}» ${t.tags.map((x) => x.tag_name).join('/')}`).join('; ');
}

/** A poll that, when it fails, says what the outbox held, what the server has and what the browser sent. */
async function pollWithOutbox<T>(page: Page, read: () => Promise<T>, expected: T, timeout: number, sent: readonly string[] = []): Promise<void> {
  try {
    await expect.poll(read, { timeout, interval: 1000 }).toBe(expected);
  } catch (err) {
    const outbox = await outboxRows(page);
    throw new Error(
      `${(err as Error).message}\npage: ${page.url()}\noutbox: ${outbox}\nserver: ${await serverSummary()}\nsent:\n${sent.join('\n')}`,
      { cause: err },
    );
  }
}

/**
 * Every ticket write the browser makes (pages and service worker alike), with its body and answer: when an
 * edit does not arrive, the failure says whether it was sent, by whom, and what came back.
 */
function recordTicketWrites(context: BrowserContext): string[] {
  const sent: string[] = [];
  const started = Date.now();
  const line = (r: Request, outcome: string) =>
    `${Date.now() - started} ms ${r.serviceWorker() ? 'worker' : 'page'} ${r.method()} ${new URL(r.url()).pathname} ${(r.postData() ?? '').slice(0, 160)} → ${outcome}`;
  const writes = (r: Request) => /\/(update_ticket|ticket_create|attach_image)\b/.test(r.url());
  context.on('requestfinished', (r) => {
    if (writes(r)) void r.response().then((res) => sent.push(line(r, String(res?.status() ?? '?'))), () => sent.push(line(r, 'sin respuesta')));
  });
  context.on('requestfailed', (r) => {
    if (writes(r)) sent.push(line(r, `falló: ${r.failure()?.errorText ?? '?'}`));
  });
  return sent;
}

const pendingBadges = (page: Page) => page.getByText('Pendiente de envío', { exact: true }).count();

async function addEntry(page: Page, kind: 'gasto' | 'ingreso', amount: string, category: string, note = '', image = false) {
  await page.getByRole('button', { name: kind === 'gasto' ? 'Agregar gasto' : 'Agregar ingreso' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Monto', { exact: true }).fill(amount);
  await dialog.getByLabel('Categoría').selectOption({ label: category });
  if (note) await dialog.getByLabel('Nota', { exact: true }).fill(note);
  if (image) await dialog.getByLabel('Adjunto').setInputFiles({ name: 'recibo.png', mimeType: 'image/png', buffer: PNG });
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
}

async function openSignedIn(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${app.url}/#/login`);
  await page.getByLabel('Usuario o correo').fill(user.username);
  await page.getByLabel('Contraseña', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect.poll(() => page.getByRole('button', { name: /^Cuenta: Olga/ }).isVisible(), { timeout: 20_000 }).toBe(true);
  await waitForServiceWorker(page);
  return page;
}

describe('offline capture through the outbox', () => {
  it('keeps offline captures across a closed page and delivers each exactly once on reconnect', async () => {
    const { context, page: first } = await app.newContext({ width: 1280, height: 800 });
    await first.close();
    const sent = recordTicketWrites(context);
    const page = await openSignedIn(context);

    await context.setOffline(true);
    await addEntry(page, 'gasto', '123.45', 'Transporte', 'Taxi al aeropuerto', true);
    await addEntry(page, 'gasto', '80', 'Alimentos y bebidas');
    await addEntry(page, 'ingreso', '5000', 'Honorarios', '', true);
    await expect.poll(() => pendingBadges(page), { timeout: 10_000 }).toBe(3);

    // Retag and annotate the second spending while still offline.
    const row = page.getByRole('row', { name: /80\.00/ });
    await row.getByRole('combobox', { name: /^Categoría de/ }).selectOption({ label: 'Supermercado' });
    await row.getByRole('button', { name: /^Editar nota/ }).click();
    await row.getByRole('textbox').fill('  Despensa de la semana  ');
    await row.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => page.getByText('Despensa de la semana').count()).toBeGreaterThan(0);
    // The text above is also found in the editor itself (React keeps a controlled textarea's text equal to
    // what was typed), so it does not mean the note is stored: closing the page before the save's
    // transaction committed dropped the note and its operation. The editor closes once the note is stored,
    // and the outbox then holds both edits.
    await expect.poll(() => row.getByRole('textbox').count()).toBe(0);
    await expect.poll(async () => (await outboxRows(page)).match(/"ticket\.update"/g)?.length ?? 0).toBe(2);
    expect(await serverTickets()).toHaveLength(0);

    // Close the page; open the app again, still offline: everything is there, still pending.
    await page.close();
    const again = await context.newPage();
    await again.goto(`${app.url}/`);
    await expect.poll(() => pendingBadges(again), { timeout: 20_000 }).toBe(3);
    await expect.poll(() => again.getByText('Taxi al aeropuerto').count()).toBeGreaterThan(0);
    // The edits of the closed page are on the device too: the note, and its operation queued.
    await expect.poll(() => again.getByText('Despensa de la semana').count()).toBeGreaterThan(0);
    expect((await outboxRows(again)).match(/"ticket\.update"/g)).toHaveLength(2); // the retag and the note

    // Reconnect: the queue drains, in order, once. An operation the closed page had leased just as it
    // closed waits for its lease to run out (LEASE_MS, 60 s) before another context may send it: by
    // design, so a slow request is never sent twice — hence waits longer than the lease.
    await context.setOffline(false);
    await pollWithOutbox(again, async () => (await serverTickets()).length, 3, 90_000, sent);
    // Creates land first; the retag and the note of the same ticket follow them in order.
    await pollWithOutbox(again, async () => (await serverTickets()).find((t) => t.amount === '80.00')?.note, 'Despensa de la semana', 90_000, sent);
    await expect.poll(() => pendingBadges(again), { timeout: 90_000 }).toBe(0);
    await expect.poll(() => again.getByText('Taxi al aeropuerto').count()).toBeGreaterThan(0);
    const tickets = await serverTickets();
    const taxi = tickets.find((t) => t.amount === '123.45');
    const food = tickets.find((t) => t.amount === '80.00');
    const income = tickets.find((t) => t.amount === '5000.00');
    expect(taxi).toMatchObject({ ticket_type_id: 2, ticket_status_name: 'no facturable', note: 'Taxi al aeropuerto', include_ticket_image: true });
    expect(taxi?.tags[0]?.tag_name).toBe('Transporte');
    expect(food).toMatchObject({ note: 'Despensa de la semana', include_ticket_image: false });
    expect(food?.tags[0]?.tag_name).toBe('Supermercado');
    expect(income).toMatchObject({ ticket_type_id: 4, ticket_status_name: 'ingreso no facturable', include_ticket_image: true });
    const image = await fetch(`${app.url}/api/v2/ticket_image?ticket_id=${taxi?.ticket_id}&access_token=${user.token}`);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
    await context.close();
  }, 240_000);

  it('loses nothing and duplicates nothing when the network fails in the middle of a replay', async () => {
    const { context, page: first } = await app.newContext({ width: 1280, height: 800 });
    await first.close();
    const page = await openSignedIn(context);
    const before = (await serverTickets()).length;

    await context.setOffline(true);
    for (const amount of ['11.10', '22.20', '33.30', '44.40']) await addEntry(page, 'gasto', amount, 'Papelería y oficina', `corte ${amount}`);
    await expect.poll(() => pendingBadges(page), { timeout: 10_000 }).toBe(4);

    // Back online, but the first create is aborted before the server and the second one's
    // response is lost after the server committed it; the rest go through.
    let creates = 0;
    await context.route('**/form/ticket_create**', async (route) => {
      creates += 1;
      if (creates === 1) return route.abort('internetdisconnected');
      if (creates === 2) {
        await route.fetch();
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    await context.setOffline(false);
    await page.evaluate(() => window.dispatchEvent(new Event('online')));

    await expect.poll(async () => (await serverTickets()).length, { timeout: 90_000, interval: 1000 }).toBe(before + 4);
    await expect.poll(() => pendingBadges(page), { timeout: 90_000 }).toBe(0);
    const notes = (await serverTickets()).map((t) => t.note).filter((n) => n.startsWith('corte'));
    expect(notes.sort()).toEqual(['corte 11.10', 'corte 22.20', 'corte 33.30', 'corte 44.40']);
    expect(creates).toBeGreaterThanOrEqual(5);
    await context.close();
  });
});
