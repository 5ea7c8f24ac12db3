// The statuses stream's cursor (look-cursor.ts): after a look, the next one sees the rows written
// since — including a row committed later by a transaction that was already running, whose updated_at
// is older than the look (the case a time window alone can miss).
//
// The cursor is a snapshot's xmin: the oldest transaction then running anywhere in the cluster. Other
// test files write to the same PostgreSQL server at the same time, so a cursor taken while one of their
// transactions runs is older, and the next look also returns rows it had already seen (the stream skips
// those: it remembers what it sent). That is safe and the claim "never misses a row" holds always; the
// claim "skips what it had seen" is checked against a snapshot in which nothing else was running.
import { randomUUID } from 'node:crypto';
import { and, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/server/db/client';
import { uploads } from '../../../src/server/db/schema';
import { snapshotXmin, writtenSince } from '../../../src/server/imports/look-cursor';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

describe.each(DRIVERS)('statuses cursor on %s', (driver) => {
  let h: Harness;
  let userId: number;
  beforeAll(async () => {
    h = await createHarness(driver);
    userId = (await h.signUp('cur')).userId;
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const row = (name: string) => ({ id: randomUUID(), userId, name, kind: 'xml', size: 1, status: 'recibido', createdAt: new Date(), updatedAt: new Date() });
  const look = async (ids: string[], xid: string) =>
    (await h.database.db.select({ id: uploads.id, status: uploads.status }).from(uploads).where(and(inArray(uploads.id, ids), writtenSince(xid)))).map((r) => `${r.id}:${r.status}`).sort();

  /** A cursor (as snapshotXmin gives it) from a snapshot in which no transaction but `ours` was running. */
  const quietCursor = async (ours: string[] = []): Promise<string> => {
    for (let i = 0; i < 400; i++) {
      const [snap] = await queryRows<{ x: string; running: string[] }>(
        h.database.db,
        sql`SELECT pg_snapshot_xmin(s)::text AS x, ARRAY(SELECT r::text FROM pg_snapshot_xip(s) AS r) AS running FROM pg_current_snapshot() AS s`,
      );
      if (snap && snap.running.every((r) => ours.includes(r))) return String(BigInt(snap.x) % 2n ** 32n);
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('el servidor no quedó sin otras transacciones en 10 s');
  };

  it('sees every row written after the cursor was taken', async () => {
    const db = h.database.db;
    const a = row('a.xml');
    const b = row('b.xml');
    await db.insert(uploads).values(a);
    const cursor = await snapshotXmin(db);
    expect(cursor).toMatch(/^\d+$/);
    await db.insert(uploads).values(b);
    expect(await look([a.id, b.id], cursor)).toContain(`${b.id}:recibido`);
    await db.update(uploads).set({ status: 'procesando' }).where(inArray(uploads.id, [a.id]));
    expect(await look([a.id, b.id], cursor)).toEqual([`${a.id}:procesando`, `${b.id}:recibido`].sort());
  });

  it('skips the rows written before the cursor when nothing older was running', async () => {
    const db = h.database.db;
    const a = row('a.xml');
    const b = row('b.xml');
    await db.insert(uploads).values(a);
    const cursor = await quietCursor();
    expect(await look([a.id, b.id], cursor)).toEqual([]);
    await db.insert(uploads).values(b);
    expect(await look([a.id, b.id], cursor)).toEqual([`${b.id}:recibido`]);
    // A later cursor has seen them all.
    expect(await look([a.id, b.id], await quietCursor())).toEqual([]);
  });

  it.runIf(driver === 'pg')('finds a change committed after the cursor by a transaction that was running before it', async () => {
    const db = h.database.db;
    const a = row('late.xml');
    await db.insert(uploads).values(a);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let wrote!: (xid: string) => void;
    const written = new Promise<string>((r) => (wrote = r));
    const slow = db.transaction(async (tx) => {
      await tx.update(uploads).set({ status: 'importado', updatedAt: new Date(Date.now() - 60_000) }).where(inArray(uploads.id, [a.id]));
      const [own] = await queryRows<{ xid: string }>(tx, sql`SELECT pg_current_xact_id()::text AS xid`);
      wrote(own?.xid ?? '');
      await gate;
    });
    let cursor: string;
    try {
      cursor = await quietCursor([await written]);
      // Not committed yet: the look sees nothing new.
      expect(await look([a.id], cursor)).toEqual([]);
    } finally {
      release();
      await slow;
    }
    // Committed after the cursor, by a transaction that began before it: the same cursor finds it.
    expect(await look([a.id], cursor)).toEqual([`${a.id}:importado`]);
  });
});
