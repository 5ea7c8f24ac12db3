// Pulls the account lists from the server into Dexie (server → Dexie → useLiveQuery → screen).
// Accounts are fetched on every layout mount; the reference lists only when older than a day.
import type { AppDb } from '../../offline/db';
import { replaceAccounts } from '../../offline/local-data';
import { refreshReferenceData } from '../../offline/reference-data';
import { api } from '../api/client';
import { getAccounts } from '../api/endpoints';

export async function syncAccounts(db: AppDb): Promise<void> {
  await replaceAccounts(db, await getAccounts());
}

/** Plans, categories and companies: a failure is not shown (the cached copy, or the domain defaults, still serve). */
export async function syncReferenceLists(db: AppDb): Promise<void> {
  await refreshReferenceData(db, api);
}
