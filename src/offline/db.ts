// The device's copy of the user's data (DESIGN §4). Only the signed-in layout imports this
// module, so Dexie stays out of the entry and login chunks. Later issues add tables in new versions.
import { Dexie, type EntityTable } from 'dexie';
import type { Account } from '../domain/account';
import { DB_NAME } from './db-name';

export { DB_NAME };

export interface PlanRow {
  id: number;
  name: string;
  summary: string;
  price: number;
}

export interface CategoryRow {
  id: number;
  meta_tag: string;
}

export interface IncomeCategoryRow {
  id: number;
  income_meta_tag: string;
}

export interface MetaRow {
  key: string;
  /** Epoch ms when the cached list was fetched. */
  fetchedAt: number;
}

export type AppDb = Dexie & {
  accounts: EntityTable<Account, 'diverza_client_id'>;
  plans: EntityTable<PlanRow, 'id'>;
  categories: EntityTable<CategoryRow, 'id'>;
  incomeCategories: EntityTable<IncomeCategoryRow, 'id'>;
  meta: EntityTable<MetaRow, 'key'>;
};

export const SCHEMA_V1 = {
  accounts: 'diverza_client_id, rfc',
  plans: 'id',
  categories: 'id',
  incomeCategories: 'id',
  meta: 'key',
} as const;

export function createDb(name: string = DB_NAME): AppDb {
  const db = new Dexie(name) as AppDb;
  db.version(1).stores(SCHEMA_V1);
  // A newer tab upgrading the schema must not be blocked by this one: close and let it reload.
  db.on('versionchange', () => {
    db.close();
    return false;
  });
  return db;
}

/** The app's database. */
export const db: AppDb = createDb();
