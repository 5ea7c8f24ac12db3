// Reference lists every screen needs offline (plans, categories, income categories, supported
// companies), refetched when older than a day. The one place they are fetched.
import type { AppDb, CategoryRow, CompanyRow, IncomeCategoryRow, PlanRow } from './db';
import type { Http } from './http';
import { isFresh, storeList, type CachedList } from './local-data';

export interface RefreshOptions {
  /** Refetch even if the stored copy is less than a day old. */
  force?: boolean;
  now?: number;
}

/** Which lists were refreshed; a failed one keeps its stored copy (never throws). */
export async function refreshReferenceData(
  db: AppDb, http: Http, options: RefreshOptions = {},
): Promise<{ refreshed: string[]; failed: string[] }> {
  const now = options.now ?? Date.now();
  const jobs: [CachedList, () => Promise<void>][] = [
    ['plans', async () => storeList(db, 'plans', pick(await http.get<PlanRow[]>('/api/v3/plans.json'), ['id', 'name', 'summary', 'price']), now)],
    ['categories', async () => storeList(db, 'categories', pick(await http.get<CategoryRow[]>('/meta_tags.json'), ['id', 'meta_tag']), now)],
    ['incomeCategories', async () =>
      storeList(db, 'incomeCategories', pick(await http.get<IncomeCategoryRow[]>('/income_meta_tags.json'), ['id', 'income_meta_tag']), now)],
    ['companies', async () =>
      storeList(db, 'companies', pick(await http.get<CompanyRow[]>('/company/all.json'), ['short_name', 'diverza_client_id', 'name', 'value']), now)],
  ];
  const refreshed: string[] = [];
  const failed: string[] = [];
  await Promise.all(
    jobs.map(async ([name, run]) => {
      if (!options.force && (await isFresh(db, name, now))) return;
      try {
        await run();
        refreshed.push(name);
      } catch {
        failed.push(name);
      }
    }),
  );
  return { refreshed: refreshed.sort(), failed: failed.sort() };
}

/** Keeps only the fields we store (the server may add more). */
function pick<T extends object>(rows: T[], keys: (keyof T)[]): T[] {
  return rows.map((r) => Object.fromEntries(keys.map((k) => [k, r[k]])) as T);
}
