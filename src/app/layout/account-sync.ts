// Pulls the account lists from the server into Dexie (server → Dexie → useLiveQuery → screen).
// Accounts are fetched on every layout mount; plans and categories only when older than a day.
import type { AppDb } from '../../offline/db';
import { isFresh, replaceAccounts, storeList } from '../../offline/local-data';
import { getAccounts, getCategories, getIncomeCategories, getPlans } from '../api/endpoints';

export async function syncAccounts(db: AppDb): Promise<void> {
  await replaceAccounts(db, await getAccounts());
}

/** Reference lists: a failure here is not shown (the cached copy, or the domain defaults, still serve). */
export async function syncReferenceLists(db: AppDb): Promise<void> {
  const jobs: Promise<void>[] = [];
  if (!(await isFresh(db, 'plans'))) {
    jobs.push(getPlans().then((rows) => storeList(db, 'plans', rows.map(({ id, name, summary, price }) => ({ id, name, summary, price })))));
  }
  if (!(await isFresh(db, 'categories'))) jobs.push(getCategories().then((rows) => storeList(db, 'categories', rows)));
  if (!(await isFresh(db, 'incomeCategories'))) {
    jobs.push(getIncomeCategories().then((rows) => storeList(db, 'incomeCategories', rows)));
  }
  await Promise.allSettled(jobs);
}
