import { afterEach, describe, expect, it } from 'vitest';
import { Dexie } from 'dexie';
import { createDb, SCHEMA_V1, SCHEMA_V2, SCHEMA_V4, type AppDb } from '../../src/offline/db';
import { isFresh, LIST_TTL_MS, listAccounts, putAccount, replaceAccounts, storeList } from '../../src/offline/local-data';
import { account } from './fixtures';

let db: AppDb;
let n = 0;
const fresh = () => (db = createDb(`test-db-${++n}`));

afterEach(async () => {
  await db.delete();
});

describe('Dexie schema', () => {
  it('v2 has the v1 tables plus tickets, outbox, blobs and companies with their indexes', async () => {
    fresh();
    await db.open();
    expect(db.verno).toBe(4);
    expect(db.tables.map((t) => t.name).sort()).toEqual(Object.keys(SCHEMA_V4).sort());
    for (const t of Object.keys(SCHEMA_V1)) expect(Object.keys(SCHEMA_V2)).toContain(t);
    expect(db.accounts.schema.primKey.keyPath).toBe('diverza_client_id');
    expect(db.plans.schema.primKey.keyPath).toBe('id');
    expect(db.meta.schema.primKey.keyPath).toBe('key');
    expect(db.accounts.schema.indexes.map((i) => i.name)).toContain('rfc');
    expect(db.tickets.schema.primKey.keyPath).toBe('ticket_id');
    expect(db.tickets.schema.indexes.map((i) => i.name).sort()).toEqual(['[currency+received_at]', '[rfc+month+received_at]', '[rfc+month]', 'syncState']);
    expect(db.outbox.schema.primKey.auto).toBe(true);
    expect(db.outbox.schema.indexes.map((i) => i.name).sort()).toEqual(['opId', 'status', 'ticketId', 'ticketIds']);
    expect(db.outbox.schema.idxByName.opId?.unique).toBe(true);
    expect(db.outbox.schema.idxByName.ticketIds?.multi).toBe(true);
    expect(db.blobs.schema.primKey.keyPath).toBe('id');
    expect(db.companies.schema.primKey.keyPath).toBe('short_name');
  });

  it('upgrading a v1 database to v2 keeps its data (additive migration)', async () => {
    const name = `test-db-migrate-${++n}`;
    const v1 = new Dexie(name);
    v1.version(1).stores(SCHEMA_V1);
    await v1.open();
    await v1.table('accounts').put(account(7, 'AAA010101AAA'));
    await v1.table('categories').bulkPut([{ id: 1, meta_tag: 'Alimentos' }]);
    await v1.table('meta').put({ key: 'categories', fetchedAt: 123 });
    v1.close();

    db = createDb(name);
    await db.open();
    expect(db.verno).toBe(4);
    expect((await db.accounts.get(7))?.rfc).toBe('AAA010101AAA');
    expect(await db.categories.toArray()).toEqual([{ id: 1, meta_tag: 'Alimentos' }]);
    expect(await db.meta.get('categories')).toEqual({ key: 'categories', fetchedAt: 123 });
    expect(await db.tickets.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('accounts', () => {
  it('replacing the list drops accounts the server no longer returns and keeps a stable order', async () => {
    fresh();
    await replaceAccounts(db, [account(30, 'CCC010101AAA'), account(10, 'AAA010101AAA'), account(20, 'BBB010101AAA')]);
    await replaceAccounts(db, [account(30, 'CCC010101AAA'), account(10, 'AAA010101AAA', 'Nuevo nombre')]);
    const list = await listAccounts(db);
    expect(list.map((a) => a.diverza_client_id)).toEqual([10, 30]);
    expect(list[0]!.name).toBe('Nuevo nombre');
  });

  it('an edited account replaces the stored one', async () => {
    fresh();
    await putAccount(db, account(1, 'AAA010101AAA', 'Antes'));
    await putAccount(db, account(1, 'AAA010101AAA', 'Después'));
    expect((await db.accounts.get(1))?.name).toBe('Después');
  });
});

describe('cached lists', () => {
  it('store rows with their fetch time and expire after 24 h', async () => {
    fresh();
    const t0 = 5_000_000;
    await storeList(db, 'plans', [{ id: 1, name: 'Gratuito', summary: 's', price: 0 }], t0);
    expect(await db.plans.count()).toBe(1);
    expect(await isFresh(db, 'plans', t0 + LIST_TTL_MS - 1)).toBe(true);
    expect(await isFresh(db, 'plans', t0 + LIST_TTL_MS)).toBe(false);
    expect(await isFresh(db, 'categories', t0)).toBe(false);
  });

  it('a new list replaces the old one entirely', async () => {
    fresh();
    await storeList(db, 'categories', [{ id: 1, meta_tag: 'A' }, { id: 2, meta_tag: 'B' }]);
    await storeList(db, 'categories', [{ id: 3, meta_tag: 'C' }]);
    expect(await db.categories.toArray()).toEqual([{ id: 3, meta_tag: 'C' }]);
  });
});
