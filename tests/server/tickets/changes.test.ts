// The change feed (incremental sync): writes, soft and hard deletes in order, paging by cursor, the owner's
// accounts only, and hostile cursors refused in Spanish.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids';
import { MERCHANTS } from '../../../src/domain/merchants';
import { MSG } from '../../../src/domain/messages';
import type { Ticket } from '../../../src/domain/ticket';
import { receipts, tickets } from '../../../src/server/db/schema';
import { attachReceipt } from '../receipts/receipt-fixtures';
import { DRIVERS, type Harness } from '../helpers/harness';
import { harnessWithOwner } from './owner-setup';
import { createEntry, ownerWithRfc, spending, type Owner } from './ticket-fixtures';

describe.each(DRIVERS)('ticket change feed on %s', (driver) => {
  let h: Harness;
  let a: Owner;
  harnessWithOwner(driver, (setup) => ({ h, a } = setup));

  const feed = (since: string, opts: { limit?: number; rfc?: string; token?: string } = {}) =>
    h.call('GET', `/api/v2/tickets/changes?usuario[rfc_owner]=${opts.rfc ?? a.rfc}&since=${since}${opts.limit !== undefined ? `&limit=${opts.limit}` : ''}`, { token: opts.token ?? a.token });
  const latest = async () => (await feed('latest')).json.response.cursor as string;

  it('answers only the current cursor for since=latest, then nothing new after it', async () => {
    const start = await feed('latest');
    expect(start.status).toBe(200);
    expect(start.json.response).toEqual({ tickets: [], deleted: [], cursor: expect.stringMatching(/^\d+$/), more: false });
    const again = await feed(start.json.response.cursor);
    expect(again.json.response).toEqual({ tickets: [], deleted: [], cursor: start.json.response.cursor, more: false });
  });

  it('reports creations and updates in change order, as the month list shows them, and soft deletes as deletions', async () => {
    const cursor = await latest();
    const one = await createEntry(h, a, spending({ date: '2026/04/02', note: 'uno' }));
    const two = await createEntry(h, a, spending({ date: '2026/05/03', note: 'dos' }));
    const put = await h.call('PUT', '/api/v2/update_ticket', { token: a.token, body: { ticket: { ticket_id: one.id, meta_tag_id: null, income_meta_tag_id: null, notes: 'uno bis' } } });
    expect(put.status).toBe(200);
    const r = await feed(cursor);
    expect(r.status).toBe(200);
    const page = r.json.response;
    expect(page.tickets.map((t: Ticket) => t.ticket_id)).toEqual([two.id, one.id]);
    expect(page.tickets[1]).toEqual(put.json.response);
    expect(page.deleted).toEqual([]);
    expect(page.more).toBe(false);
    expect(BigInt(page.cursor)).toBeGreaterThan(BigInt(cursor));

    const del = await h.call('DELETE', '/api/v2/tickets', { token: a.token, body: { tickets: [two.id] } });
    expect(del.json.response.deleted).toBe(1);
    const after = (await feed(page.cursor)).json.response;
    expect(after).toMatchObject({ tickets: [], deleted: [two.id], more: false });
  });

  it('reports a hard-deleted ticket through its tombstone', async () => {
    const t = await createEntry(h, a, spending({ date: '2026/04/09' }));
    const cursor = await latest();
    await h.database.db.delete(tickets).where(eq(tickets.id, t.id));
    expect((await feed(cursor)).json.response).toMatchObject({ tickets: [], deleted: [t.id], more: false });
  });

  it('pages by cursor with more=true until the changes run out, each change once', async () => {
    const cursor = await latest();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createEntry(h, a, spending({ date: '2026/06/0' + (i + 1) }))).id);
    const seen: string[] = [];
    let at = cursor;
    let pages = 0;
    for (;;) {
      const page = (await feed(at, { limit: 2 })).json.response;
      pages++;
      seen.push(...page.tickets.map((t: Ticket) => t.ticket_id));
      at = page.cursor;
      if (!page.more) break;
    }
    expect(seen).toEqual(ids);
    expect(pages).toBe(3);
  });

  it('moves a ticket when something its JSON shows changes elsewhere (an invoice request written for it)', async () => {
    const t = await createEntry(h, a, spending({ date: '2026/04/12' }));
    const cursor = await latest();
    await h.database.db.execute(sql`INSERT INTO invoice_requests (id, company_id, user_id, ticket_id, channel, receiver, email, status)
      VALUES (${newId()}, ${MERCHANTS[0]!.id}, ${a.userId}, ${t.id}, 'form', '{}'::jsonb, 'emma@example.com', 'solicitada')`);
    expect((await feed(cursor)).json.response.tickets.map((x: Ticket) => x.ticket_id)).toEqual([t.id]);
  });

  it("moves a ticket when its CFDI's SAT status changes, and shows the new status", async () => {
    const t = await createEntry(h, a, spending({ date: '2026/04/14' }));
    const uuid = '6F8A2C1E-1B2D-4C3E-9F00-0000000000AB';
    const receiptId = await attachReceipt(h, a, t.id, { uuid });
    const cursor = await latest();
    await h.database.db.update(receipts).set({ satStatus: 'Cancelado' }).where(eq(receipts.id, receiptId));
    const page = (await feed(cursor)).json.response;
    expect(page.tickets.map((x: Ticket) => x.ticket_id)).toEqual([t.id]);
    expect(page.tickets[0].receipt).toMatchObject({ uuid, sat_status: 'Cancelado' });
  });

  // Sequence values are taken at write time: the feed must not hand out a cursor past a write still in flight.
  it.runIf(driver === 'pg')('waits for a write still in flight on the account before it answers a cursor past it', async () => {
    const t = await createEntry(h, a, spending({ date: '2026/04/15' }));
    const cursor = await latest();
    const writer = await h.database.pool!.connect();
    try {
      await writer.query('BEGIN');
      await writer.query("UPDATE tickets SET note = 'en vuelo' WHERE id = $1", [t.id]);
      const answer = feed(cursor);
      // The feed is queued behind the writer's lock (seen in pg_locks), not answered without its change.
      for (;;) {
        const { rows } = await writer.query("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = 1952671859 AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())");
        if (rows[0].n > 0) break;
      }
      await writer.query('COMMIT');
      const page = (await answer).json.response;
      expect(page.tickets.map((x: Ticket) => [x.ticket_id, x.note])).toEqual([[t.id, 'en vuelo']]);
    } finally {
      writer.release();
    }
  });

  it("refuses another user's account as an unknown one", async () => {
    const b = await ownerWithRfc(h, 'MEGA800101AB1');
    const r = await feed('0', { rfc: b.rfc });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ errors: [MSG.notFound] });
    // Even when both users hold the same RFC, each sees only their own account's changes.
    const twin = await ownerWithRfc(h, a.rfc);
    const mine = await createEntry(h, a, spending({ date: '2026/04/20' }));
    const theirs = (await feed('0', { token: twin.token, limit: 1000 })).json.response;
    expect(theirs.tickets.map((t: Ticket) => t.ticket_id)).not.toContain(mine.id);
    expect(theirs.tickets).toEqual([]);
  });

  it('refuses malformed cursors and limits with a Spanish 400, and a cursor it never handed out', async () => {
    for (const since of ['', '-1', '1.5', 'abc', '01', '1e3', '9'.repeat(40), "1'%20OR%201=1"]) {
      const r = await feed(since);
      expect(r.status, since).toBe(400);
      expect(r.json).toEqual({ errors: [MSG.badJson] });
    }
    for (const limit of [0, 1001, 99999]) expect((await feed('0', { limit })).status).toBe(400);
    const ahead = String(BigInt(await latest()) + 1000n);
    expect((await feed(ahead)).json).toEqual({ errors: [MSG.badJson] });
    expect((await h.call('GET', `/api/v2/tickets/changes?usuario[rfc_owner]=${a.rfc}&since=0`)).status).toBe(401);
  });
});
