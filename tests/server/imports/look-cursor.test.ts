// The statuses stream's cursor (look-cursor.ts): after a look, the next one sees exactly the rows
// written since — including a row committed later by a transaction that was already running, whose
// updated_at is older than the look (the case a time window alone can miss).
import { randomUUID } from 'node:crypto';
import { and, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('keeps only the rows written after the cursor was taken', async () => {
    const db = h.database.db;
    const a = row('a.xml');
    const b = row('b.xml');
    await db.insert(uploads).values(a);
    const cursor = await snapshotXmin(db);
    expect(cursor).toMatch(/^\d+$/);
    expect(await look([a.id, b.id], cursor)).toEqual([]);
    await db.insert(uploads).values(b);
    expect(await look([a.id, b.id], cursor)).toEqual([`${b.id}:recibido`]);
    await db.update(uploads).set({ status: 'procesando' }).where(inArray(uploads.id, [a.id]));
    expect(await look([a.id, b.id], cursor)).toEqual([`${a.id}:procesando`, `${b.id}:recibido`].sort());
    // A later cursor has seen them all.
    expect(await look([a.id, b.id], await snapshotXmin(db))).toEqual([]);
  });

  it.runIf(driver === 'pg')('finds a change committed after the cursor by a transaction that was running before it', async () => {
    const db = h.database.db;
    const a = row('late.xml');
    await db.insert(uploads).values(a);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let wrote!: () => void;
    const written = new Promise<void>((r) => (wrote = r));
    const slow = db.transaction(async (tx) => {
      await tx.update(uploads).set({ status: 'importado', updatedAt: new Date(Date.now() - 60_000) }).where(inArray(uploads.id, [a.id]));
      wrote();
      await gate;
    });
    await written;
    const cursor = await snapshotXmin(db);
    // Not committed yet: the look sees nothing new.
    expect(await look([a.id], cursor)).toEqual([]);
    release();
    await slow;
    expect(await look([a.id], cursor)).toEqual([`${a.id}:importado`]);
  });
});
