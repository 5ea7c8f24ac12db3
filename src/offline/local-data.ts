// Writes server lists into Dexie (server → Dexie → useLiveQuery → screen) and tracks their age.
import type { Account } from '../domain/account';
import type { AppDb, CategoryRow, CompanyRow, IncomeCategoryRow, PlanRow } from './db';

/** Plans and categories change rarely: refetch them after a day. */
export const LIST_TTL_MS = 24 * 60 * 60 * 1000;

export type CachedList = 'plans' | 'categories' | 'incomeCategories' | 'companies';

/** Replaces the stored accounts with the server's list (accounts removed elsewhere disappear). */
export async function replaceAccounts(db: AppDb, accounts: Account[]): Promise<void> {
  await db.transaction('rw', db.accounts, async () => {
    const keep = new Set(accounts.map((a) => a.diverza_client_id));
    const stale = (await db.accounts.toCollection().primaryKeys()).filter((k) => !keep.has(k));
    await db.accounts.bulkDelete(stale);
    await db.accounts.bulkPut(accounts);
  });
}

export async function putAccount(db: AppDb, account: Account): Promise<void> {
  await db.accounts.put(account);
}

/** Accounts in a stable order (by id), so the stored default index keeps pointing at the same one. */
export async function listAccounts(db: AppDb): Promise<Account[]> {
  return db.accounts.orderBy('diverza_client_id').toArray();
}

export async function isFresh(db: AppDb, list: CachedList, now: number = Date.now()): Promise<boolean> {
  const row = await db.meta.get(list);
  return !!row && now - row.fetchedAt < LIST_TTL_MS;
}

export async function storeList(
  db: AppDb,
  list: 'plans',
  rows: PlanRow[],
  now?: number,
): Promise<void>;
export async function storeList(db: AppDb, list: 'categories', rows: CategoryRow[], now?: number): Promise<void>;
export async function storeList(
  db: AppDb,
  list: 'incomeCategories',
  rows: IncomeCategoryRow[],
  now?: number,
): Promise<void>;
export async function storeList(db: AppDb, list: 'companies', rows: CompanyRow[], now?: number): Promise<void>;
export async function storeList(
  db: AppDb,
  list: CachedList,
  rows: PlanRow[] | CategoryRow[] | IncomeCategoryRow[] | CompanyRow[],
  now: number = Date.now(),
): Promise<void> {
  const table = db[list] as unknown as { clear(): Promise<void>; bulkPut(r: unknown[]): Promise<unknown> };
  await db.transaction('rw', db[list], db.meta, async () => {
    await table.clear();
    await table.bulkPut(rows);
    await db.meta.put({ key: list, fetchedAt: now });
  });
}
