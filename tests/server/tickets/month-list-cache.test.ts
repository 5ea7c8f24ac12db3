// The month list kept as JSON text per process (lib/ticket-json.ts ownTicketsInRangeJson): every answer must
// be the bytes a fresh read would give, after any change, made through this process or another one.
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthRange } from '../../../src/domain/mexico-time';
import { createDb, queryRows, type Db } from '../../../src/server/db/client';
import * as schema from '../../../src/server/db/schema';
import { tickets } from '../../../src/server/db/schema';
import { ownTicketsInRange, ownTicketsInRangeJson } from '../../../src/server/lib/ticket-json';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';
import { createEntry, listMonth, ownerWithRfc, spending, type Owner } from './ticket-fixtures';

describe.each(DRIVERS)('month list kept between requests on %s', (driver) => {
  let h: Harness;
  let a: Owner;
  /** A second handle on the same database: another API process's view (its own kept lists). */
  let other: Db;
  let closeOther: () => Promise<void>;
  const { from, to } = monthRange(2026, 4);

  beforeAll(async () => {
    h = await createHarness(driver);
    a = await ownerWithRfc(h, 'MCAC800101AB1');
    if (h.database.pglite) {
      other = drizzle(h.database.pglite, { schema }) as unknown as Db;
      closeOther = async () => undefined;
    } else {
      const second = await createDb({ databaseUrl: h.database.connectionString, poolMax: 2 });
      other = second.db;
      closeOther = () => second.close();
    }
  });
  afterAll(async () => {
    await closeOther?.();
    await h?.close();
  });

  /** What a fresh read answers, as the route writes it. */
  const fresh = async () => JSON.stringify({ response: { tickets: (await ownTicketsInRange(h.database.db, a.userId, a.rfc, from, to)) ?? null } });
  const viaApi = async () => {
    const r = await listMonth(h, a, 2026, 4);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    return r.text;
  };
  const viaOther = async () => `{"response":{"tickets":${await ownTicketsInRangeJson(other, a.userId, a.rfc, from, to)}}}`;

  /** Both processes answer the fresh bytes, twice (the second time from what they kept). */
  async function expectCurrent(): Promise<string> {
    const expected = await fresh();
    expect(await viaApi()).toBe(expected);
    expect(await viaApi()).toBe(expected);
    expect(await viaOther()).toBe(expected);
    expect(await viaOther()).toBe(expected);
    return expected;
  }

  it('answers the same bytes as a fresh read, kept or not, and follows every kind of change', async () => {
    const first = await createEntry(h, a, spending({ date: '2026/04/10', amount: '10', note: 'uno' }));
    const second = await createEntry(h, a, spending({ date: '2026/04/20', amount: '20', note: 'dos' }));
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const initial = await expectCurrent();
    expect(initial).toContain('"note":"uno"');

    // Edited in this process: the other process's kept copy must not survive it.
    const upd = await h.call('PUT', '/api/v2/update_ticket', { token: a.token, body: { ticket: { ticket_id: first.id, notes: 'editada' } } });
    expect(upd.status).toBe(200);
    expect(await expectCurrent()).toContain('"note":"editada"');

    // Written by "another process" straight to the database (a worker's job): this process must see it.
    await other.update(tickets).set({ note: 'desde otro proceso' }).where(eq(tickets.id, second.id));
    expect(await expectCurrent()).toContain('"note":"desde otro proceso"');

    // Moved to another month, then back: the list loses it, then has it again.
    await other.update(tickets).set({ receivedAt: new Date('2026-05-15T18:00:00Z') }).where(eq(tickets.id, second.id));
    expect(await expectCurrent()).not.toContain(second.id);
    await other.update(tickets).set({ receivedAt: new Date('2026-04-21T18:00:00Z') }).where(eq(tickets.id, second.id));
    expect(await expectCurrent()).toContain(second.id);

    // A new ticket, a deletion through the API, and a hard delete.
    const third = await createEntry(h, a, spending({ date: '2026/04/25', amount: '30' }));
    expect(await expectCurrent()).toContain(third.id);
    const del = await h.call('DELETE', '/api/v2/tickets', { token: a.token, body: { tickets: [first.id] } });
    expect(del.json).toEqual({ response: { deleted: 1 } });
    expect(await expectCurrent()).not.toContain(first.id);
    await queryRows(other, sql`DELETE FROM tickets WHERE id = ${third.id}`);
    const last = await expectCurrent();
    expect(last).not.toContain(third.id);
    expect(last).toContain(second.id);
  });

  it('still refuses an RFC the caller does not own, and answers an empty month as []', async () => {
    expect(await ownTicketsInRangeJson(h.database.db, a.userId, 'XAXX010101000', from, to)).toBeUndefined();
    const b = await ownerWithRfc(h, 'MCAC800101AB1'); // another user with the same RFC sees only their own
    expect(await ownTicketsInRangeJson(h.database.db, b.userId, b.rfc, from, to)).toBe('[]');
    const r = await listMonth(h, b, 2026, 4);
    expect(r.text).toBe('{"response":{"tickets":[]}}');
  });
});
