import { afterEach, describe, expect, it } from 'vitest';
import { createDb, SCHEMA_V1, type AppDb } from '../../src/offline/db';
import { isFresh, LIST_TTL_MS, listAccounts, putAccount, replaceAccounts, storeList } from '../../src/offline/local-data';
import { account } from './fixtures';

let db: AppDb;
let n = 0;
const fresh = () => (db = createDb(`test-db-${++n}`));

afterEach(async () => {
  await db.delete();
});

describe('Dexie schema v1', () => {
  it('has the tables and primary keys of DESIGN §4 for this issue', async () => {
    fresh();
    await db.open();
    expect(db.verno).toBe(1);
    expect(db.tables.map((t) => t.name).sort()).toEqual(Object.keys(SCHEMA_V1).sort());
    expect(db.accounts.schema.primKey.keyPath).toBe('diverza_client_id');
    expect(db.plans.schema.primKey.keyPath).toBe('id');
    expect(db.meta.schema.primKey.keyPath).toBe('key');
    expect(db.accounts.schema.indexes.map((i) => i.name)).toContain('rfc');
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
