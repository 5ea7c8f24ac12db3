// Incremental sync on the device: a first load takes the feed's cursor before it reads the month, later
// pulls ask only the change feed, apply creations, updates and deletions, and never overwrite a ticket
// with a pending local edit: its change is read again once the edit has landed, and only then.
import { afterEach, describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import type { AppDb } from '../../src/offline/db';
import { createHttp } from '../../src/offline/http';
import { setTicketNote } from '../../src/offline/operations/ticket-update';
import { applyChanges, applyPull, isMonthSeen, MAX_FEED_PAGES, pullMonth } from '../../src/offline/pull';
import { discardOp } from '../../src/offline/outbox-control';
import { createManualTicket } from '../../src/offline/operations/ticket-create';
import { wipeLocalData } from '../../src/offline/wipe';
import { cursorKey, readCursor, type SyncCursorRow } from '../../src/offline/sync-cursor';
import { CTX, RFC, apiTicket, expenseForm, freshDb, json, scriptedFetch } from './outbox-fixtures';

let db: AppDb;
afterEach(async () => {
  await db.delete();
});

const id = (n: number) => `01900000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const isFeed = (s: { path: string }) => s.path.startsWith('/api/v2/tickets/changes?');
const isMonthList = (s: { method: string; path: string }) => s.method === 'GET' && s.path.startsWith('/api/v2/tickets?');
const since = (s: { path: string }) => new URL(`http://x${s.path}`).searchParams.get('since');
const page = (over: Partial<{ tickets: unknown[]; deleted: string[]; cursor: string; more: boolean }> = {}) =>
  json(200, { response: { tickets: [], deleted: [], cursor: '10', more: false, ...over } });

/** Counts every write to the tickets table (puts, updates, deletes). */
function countWrites(d: AppDb): { n: number } {
  const c = { n: 0 };
  d.tickets.hook('creating', () => void c.n++);
  d.tickets.hook('updating', () => void c.n++);
  d.tickets.hook('deleting', () => void c.n++);
  return c;
}

/** A device that loaded November 2026 once (cursor 10) with tickets 1 and 2. */
async function loadedDevice() {
  db = freshDb();
  const api = scriptedFetch();
  const http = createHttp({ fetch: api.fetch, getToken: () => 't', baseUrl: 'http://api.test' });
  api.on(isFeed, page({ cursor: '10' }));
  api.on(isMonthList, json(200, { response: { tickets: [apiTicket({ ticket_id: id(1), note: 'uno' }), apiTicket({ ticket_id: id(2) })] } }));
  await pullMonth(db, http, RFC, 2026, 11);
  api.sent.length = 0;
  return { api, http };
}

/** A loaded device with a note queued for ticket 1, after a sync whose feed page (up to `cursor`) changed it. */
async function deviceWithHeldEdit(cursor = '30') {
  const device = await loadedDevice();
  await setTicketNote(db, id(1), 'mía');
  device.api.on(isFeed, page({ tickets: [apiTicket({ ticket_id: id(1), note: 'del servidor' })], cursor }));
  await pullMonth(db, device.http, RFC, 2026, 11);
  return device;
}

/** The edit is over (its operation acknowledged, the row synced as it was). */
async function editLanded() {
  await db.outbox.clear();
  await db.tickets.update(id(1), { syncState: 'synced', pendingOps: 0, syncedAt: 0 });
}

const OCTOBER = '2026-10-05T12:00:00-06:00';

describe('incremental pull', () => {
  it('a first load takes the cursor (since=latest) before it reads the month, and keeps it for the account', async () => {
    const { api } = await loadedDevice();
    expect(api.sent).toHaveLength(0);
    expect(await readCursor(db, RFC)).toMatchObject({ key: cursorKey(RFC), cursor: '10', months: ['2026-11'] });
    expect(await isMonthSeen(db, RFC, 2026, 11)).toBe(true);
    expect(await db.tickets.count()).toBe(2);
  });

  it('asks since=latest first, then the month list', async () => {
    db = freshDb();
    const api = scriptedFetch();
    api.on(isFeed, page({ cursor: '4' }));
    api.on(isMonthList, json(200, { response: { tickets: [] } }));
    await pullMonth(db, createHttp({ fetch: api.fetch, getToken: () => 't', baseUrl: 'http://api.test' }), RFC, 2026, 11);
    expect(api.sent.map((s) => (isFeed(s) ? `feed:${since(s)}` : 'list'))).toEqual(['feed:latest', 'list']);
  });

  it('an unchanged month costs one small feed request and no writes', async () => {
    const { api, http } = await loadedDevice();
    const writes = countWrites(db);
    api.on(isFeed, page({ cursor: '10' }));
    expect(await pullMonth(db, http, RFC, 2026, 11)).toEqual({ received: 0, written: 0, removed: 0 });
    expect(api.sent).toHaveLength(1);
    expect(isFeed(api.sent[0]!) && since(api.sent[0]!)).toBe('10');
    expect(writes.n).toBe(0);
  });

  it('applies one change and moves the cursor past it', async () => {
    const { api, http } = await loadedDevice();
    const writes = countWrites(db);
    api.on(isFeed, page({ tickets: [apiTicket({ ticket_id: id(1), note: 'cambiada' })], cursor: '11' }));
    expect(await pullMonth(db, http, RFC, 2026, 11)).toEqual({ received: 1, written: 1, removed: 0 });
    expect((await db.tickets.get(id(1)))?.note).toBe('cambiada');
    expect(writes.n).toBe(1);
    expect((await readCursor(db, RFC))?.cursor).toBe('11');
  });

  it('removes a ticket the feed reports deleted', async () => {
    const { api, http } = await loadedDevice();
    api.on(isFeed, page({ deleted: [id(2), id(99)], cursor: '12' }));
    expect(await pullMonth(db, http, RFC, 2026, 11)).toEqual({ received: 2, written: 0, removed: 1 });
    expect(await db.tickets.get(id(2))).toBeUndefined();
    expect(await db.tickets.count()).toBe(1);
  });

  it('follows more=true pages in one sync', async () => {
    const { api, http } = await loadedDevice();
    api.on(isFeed, page({ tickets: [apiTicket({ ticket_id: id(3) })], cursor: '20', more: true }));
    api.on(isFeed, page({ tickets: [apiTicket({ ticket_id: id(4) })], cursor: '21' }));
    expect((await pullMonth(db, http, RFC, 2026, 11)).written).toBe(2);
    expect(api.sent.map(since)).toEqual(['10', '20']);
    expect((await readCursor(db, RFC))?.cursor).toBe('21');
  });

  it('never overwrites a ticket with a pending local edit; the cursor moves on and remembers where that change was', async () => {
    const { api, http } = await loadedDevice();
    await setTicketNote(db, id(1), 'mía');
    api.on(isFeed, page({ tickets: [apiTicket({ ticket_id: id(1), note: 'del servidor' }), apiTicket({ ticket_id: id(5) })], deleted: [id(1)], cursor: '30' }));
    const r = await pullMonth(db, http, RFC, 2026, 11);
    expect(r.written).toBe(1);
    expect(r.removed).toBe(0);
    expect(await db.tickets.get(id(1))).toMatchObject({ note: 'mía', syncState: 'pending' });
    expect(await db.tickets.get(id(5))).toBeDefined();
    expect(await readCursor(db, RFC)).toMatchObject({ cursor: '30', replayFrom: '10', heldFor: [id(1)] });
  });

  it('while the edit waits, a sync downloads only what is new; once it has landed, one sync reads again from the held change', async () => {
    const { api, http } = await deviceWithHeldEdit();

    // Still waiting (a refused edit may wait for days): the next syncs ask from the head, not the held change.
    api.on(isFeed, page({ tickets: [apiTicket({ ticket_id: id(6) })], cursor: '35' }));
    api.on(isFeed, page({ cursor: '35' }));
    await pullMonth(db, http, RFC, 2026, 11);
    await pullMonth(db, http, RFC, 2026, 11);
    expect(api.sent.filter(isFeed).map(since)).toEqual(['10', '30', '35']);
    expect(await db.tickets.get(id(6))).toBeDefined();
    expect(await readCursor(db, RFC)).toMatchObject({ cursor: '35', replayFrom: '10', heldFor: [id(1)] });

    // The edit is done (its operation acknowledged): one sync reads from the held change, then the head again.
    await editLanded();
    api.sent.length = 0;
    api.on(isFeed, page({ tickets: [apiTicket({ ticket_id: id(1), note: 'del servidor' }), apiTicket({ ticket_id: id(6) })], cursor: '35' }));
    api.on(isFeed, page({ cursor: '35' }));
    await pullMonth(db, http, RFC, 2026, 11);
    expect((await db.tickets.get(id(1)))?.note).toBe('del servidor');
    const state = await readCursor(db, RFC);
    expect(state).toMatchObject({ cursor: '35' });
    expect(state?.replayFrom).toBeUndefined();
    expect(state?.heldFor).toBeUndefined();
    await pullMonth(db, http, RFC, 2026, 11);
    expect(api.sent.filter(isFeed).map(since)).toEqual(['10', '35']);
  });

  it('notes a held change in the transaction that moves the cursor past it, so closing the app mid-sync loses nothing', async () => {
    await loadedDevice();
    await setTicketNote(db, id(1), 'mía');
    const held = { tickets: [apiTicket({ ticket_id: id(1), note: 'del servidor' })], deleted: [], cursor: '30', more: true };
    await applyChanges(db, RFC, held, '10', Date.now());
    expect(await readCursor(db, RFC)).toMatchObject({ cursor: '30', replayFrom: '10', heldFor: [id(1)] });
  });

  it('a replay cut short by the page limit goes on from where it stopped', async () => {
    const { api, http } = await deviceWithHeldEdit('1000');
    await editLanded();
    // From 10 the feed has more pages than one sync follows.
    api.on(isFeed, (s) => page({ cursor: String(Number(since(s)) + 1), more: true }), false);
    api.sent.length = 0;
    await pullMonth(db, http, RFC, 2026, 11);
    expect(api.sent).toHaveLength(MAX_FEED_PAGES);
    expect(await readCursor(db, RFC)).toMatchObject({ cursor: '1000', replayFrom: String(10 + MAX_FEED_PAGES), heldFor: [id(1)] });
    api.sent.length = 0;
    await pullMonth(db, http, RFC, 2026, 11);
    expect(since(api.sent[0]!)).toBe(String(10 + MAX_FEED_PAGES));
  });

  it('a hold it did not write is never sent: the month is read whole again', async () => {
    const { api, http } = await loadedDevice();
    await db.meta.put({ ...(await readCursor(db, RFC))!, replayFrom: '1; DROP', heldFor: [id(1)] } as SyncCursorRow);
    api.on(isFeed, page({ cursor: '40' }));
    api.on(isMonthList, json(200, { response: { tickets: [apiTicket({ ticket_id: id(1) })] } }));
    await pullMonth(db, http, RFC, 2026, 11);
    expect(api.sent.map((s) => (isFeed(s) ? `feed:${since(s)}` : 'list'))).toEqual(['feed:latest', 'list']);
    expect(await readCursor(db, RFC)).toMatchObject({ cursor: '40', months: ['2026-11'] });
    expect((await readCursor(db, RFC))?.replayFrom).toBeUndefined();
  });

  it('reading another month whole keeps what the feed held back', async () => {
    const { api, http } = await deviceWithHeldEdit();
    api.on(isMonthList, json(200, { response: { tickets: [] } }));
    await pullMonth(db, http, RFC, 2026, 10);
    expect(await readCursor(db, RFC)).toMatchObject({ cursor: '30', months: ['2026-10', '2026-11'], replayFrom: '10', heldFor: [id(1)] });
  });

  it('a month not read whole yet is read whole (the cursor stays), then joins the feed', async () => {
    const { api, http } = await loadedDevice();
    api.on(isMonthList, json(200, { response: { tickets: [apiTicket({ ticket_id: id(7), received_at: '2026-10-05T12:00:00-06:00' })] } }));
    await pullMonth(db, http, RFC, 2026, 10);
    expect(api.sent.map((s) => (isFeed(s) ? 'feed' : 'list'))).toEqual(['list']);
    expect(await readCursor(db, RFC)).toMatchObject({ cursor: '10', months: ['2026-10', '2026-11'] });
  });

  it('a month read whole while an edit waits is read whole again once it is over, so a discarded edit gets the server\'s copy', async () => {
    const { api, http } = await loadedDevice();
    // October was on the device before the feed covered it; a note is queued for one of its tickets.
    await applyPull(db, RFC, ['2026-10'], [apiTicket({ ticket_id: id(7), received_at: OCTOBER, note: 'vieja' })], 0);
    await setTicketNote(db, id(7), 'mía');
    const [op] = await db.outbox.toArray();
    api.on(isMonthList, json(200, { response: { tickets: [apiTicket({ ticket_id: id(7), received_at: OCTOBER, note: 'del servidor' })] } }));
    await pullMonth(db, http, RFC, 2026, 10);
    expect((await db.tickets.get(id(7)))?.note).toBe('mía');
    expect(await readCursor(db, RFC)).toMatchObject({ months: ['2026-10', '2026-11'], rereadMonths: ['2026-10'], heldFor: [id(7)] });

    // While it waits, October syncs through the feed (its server change is older than the cursor: not there).
    api.on(isFeed, page({ cursor: '10' }));
    await pullMonth(db, http, RFC, 2026, 10);
    expect(api.sent.map((s) => (isFeed(s) ? 'feed' : 'list'))).toEqual(['list', 'feed']);

    // The user discards the edit: the note goes back to what it was here, and the next sync reads October whole.
    await discardOp(db, op!.opId);
    expect((await db.tickets.get(id(7)))?.note).toBe('vieja');
    api.sent.length = 0;
    api.on(isMonthList, json(200, { response: { tickets: [apiTicket({ ticket_id: id(7), received_at: OCTOBER, note: 'del servidor' })] } }));
    await pullMonth(db, http, RFC, 2026, 10);
    expect((await db.tickets.get(id(7)))?.note).toBe('del servidor');
    const state = await readCursor(db, RFC);
    expect(state?.rereadMonths).toBeUndefined();
    expect(state?.heldFor).toBeUndefined();
    // Then the feed again.
    api.on(isFeed, page({ cursor: '10' }));
    await pullMonth(db, http, RFC, 2026, 10);
    expect(api.sent.map((s) => (isFeed(s) ? 'feed' : 'list'))).toEqual(['list', 'feed']);
  });

  it('a ticket created here and not sent yet does not make its month be read again', async () => {
    const { api, http } = await loadedDevice();
    await createManualTicket(db, expenseForm({ date: '2026/10/05' }), CTX);
    api.on(isMonthList, json(200, { response: { tickets: [] } }));
    await pullMonth(db, http, RFC, 2026, 10);
    expect(await db.tickets.where('[rfc+month]').equals([RFC, '2026-10']).count()).toBe(1);
    const state = await readCursor(db, RFC);
    expect(state?.months).toEqual(['2026-10', '2026-11']);
    expect(state?.rereadMonths).toBeUndefined();
    expect(state?.heldFor).toBeUndefined();
  });

  it('a reread month that is not a month is never trusted: the chain is dropped', async () => {
    const { api, http } = await loadedDevice();
    await db.meta.put({ ...(await readCursor(db, RFC))!, rereadMonths: ['2026-13'] } as SyncCursorRow);
    api.on(isFeed, page({ cursor: '40' }));
    api.on(isMonthList, json(200, { response: { tickets: [] } }));
    await pullMonth(db, http, RFC, 2026, 11);
    expect(api.sent.map((s) => (isFeed(s) ? `feed:${since(s)}` : 'list'))).toEqual(['feed:latest', 'list']);
    expect((await readCursor(db, RFC))?.rereadMonths).toBeUndefined();
  });

  it('a cursor the server refuses (400) is dropped and the month is read whole again', async () => {
    const { api, http } = await loadedDevice();
    api.on(isFeed, json(400, { errors: [MSG.badJson] }));
    api.on(isFeed, page({ cursor: '3' }));
    api.on(isMonthList, json(200, { response: { tickets: [apiTicket({ ticket_id: id(1) })] } }));
    const r = await pullMonth(db, http, RFC, 2026, 11);
    expect(r.removed).toBe(1);
    expect(api.sent.map((s) => (isFeed(s) ? `feed:${since(s)}` : 'list'))).toEqual(['feed:10', 'feed:latest', 'list']);
    expect((await readCursor(db, RFC))?.cursor).toBe('3');
  });

  it('a server without the feed leaves pulls whole (no cursor kept)', async () => {
    db = freshDb();
    const api = scriptedFetch();
    api.on(isMonthList, () => json(200, { response: { tickets: [] } }), false);
    const http = createHttp({ fetch: api.fetch, getToken: () => 't', baseUrl: 'http://api.test' });
    await pullMonth(db, http, RFC, 2026, 11);
    await pullMonth(db, http, RFC, 2026, 11);
    expect(await readCursor(db, RFC)).toBeNull();
    expect(api.sent.filter(isMonthList)).toHaveLength(2);
  });

  it("logout's wipe takes the cursor with the database", async () => {
    await loadedDevice();
    expect(await readCursor(db, RFC)).not.toBeNull();
    await wipeLocalData({ dbName: db.name, closeDb: () => db.close({ disableAutoOpen: false }) });
    expect(await readCursor(db, RFC)).toBeNull();
  });
});
