// The device's copy of the user's data (DESIGN §4). Only the signed-in layout imports this
// module, so Dexie stays out of the entry and login chunks. Later issues add tables in new versions.
import { Dexie, type EntityTable } from 'dexie';
import type { Account } from '../domain/account';
import type { FormFieldDefinition } from '../domain/merchant-fields';
import type { OutboxOp } from '../domain/outbox-ops';
import type { Ticket } from '../domain/ticket';
import { DB_NAME } from './db-name';
import type { TicketInvoice } from '../domain/invoicing';

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

/** 'pending' while the ticket has operations in the outbox (strings: booleans cannot be indexed). */
export type SyncState = 'pending' | 'synced';

/** A ticket on the device: the API's Ticket plus what the month queries and badges need. */
export interface TicketRow extends Ticket {
  /** 'YYYY-MM' on Mexico City's calendar. */
  month: string;
  syncState: SyncState;
  /** Outbox operations not yet acknowledged for this ticket. */
  pendingOps: number;
  /** Epoch ms of the last acknowledgement; a pull that started earlier does not overwrite or remove it. */
  syncedAt?: number;
  /** The latest invoice request of a merchant ticket, as pulled ('Where is my invoice?'); not indexed. */
  invoice?: TicketInvoice | null;
}

/**
 * An outbox row: the domain's operation plus what "discard" needs to undo the optimistic change.
 * Every row carries `ticketIds` (one entry for single-ticket operations) for the multi-entry index.
 */
export interface OutboxRow extends OutboxOp {
  ticketIds: string[];
  /** Ticket fields before the change (update, image) or the removed rows (delete). */
  revert?: Partial<Ticket> | { rows: TicketRow[] };
}

/** Attachment bytes waiting to be sent (ArrayBuffer, not Blob: WebKit fails on Blobs in IndexedDB). */
export interface BlobRow {
  id: string;
  bytes: ArrayBuffer;
  type: string;
  name: string;
  size: number;
}

/** A supported company (GET /company/all.json). */
export interface CompanyRow {
  short_name: string;
  diverza_client_id: number;
  name: string;
  /** Logo path. */
  value: string;
}

/** A merchant's form definition (GET /form/fields.json), kept so its ticket form opens offline. */
export interface FormFieldsRow {
  companyId: number;
  fields: FormFieldDefinition[];
  /** Epoch ms when it was fetched. */
  fetchedAt: number;
}

export type AppDb = Dexie & {
  accounts: EntityTable<Account, 'diverza_client_id'>;
  plans: EntityTable<PlanRow, 'id'>;
  categories: EntityTable<CategoryRow, 'id'>;
  incomeCategories: EntityTable<IncomeCategoryRow, 'id'>;
  meta: EntityTable<MetaRow, 'key'>;
  tickets: EntityTable<TicketRow, 'ticket_id'>;
  outbox: EntityTable<OutboxRow, 'seq'>;
  blobs: EntityTable<BlobRow, 'id'>;
  companies: EntityTable<CompanyRow, 'short_name'>;
  formFields: EntityTable<FormFieldsRow, 'companyId'>;
};

export const SCHEMA_V1 = {
  accounts: 'diverza_client_id, rfc',
  plans: 'id',
  categories: 'id',
  incomeCategories: 'id',
  meta: 'key',
} as const;

/** Version 2, additive: tickets, the outbox, attachment bytes and supported companies. */
export const SCHEMA_V2 = {
  ...SCHEMA_V1,
  tickets: 'ticket_id, [rfc+month], [rfc+month+received_at], syncState',
  outbox: '++seq, &opId, status, ticketId, *ticketIds',
  blobs: 'id',
  companies: 'short_name',
} as const;

/** Version 3, additive: merchants' form definitions (DESIGN §4 "form definitions"). */
export const SCHEMA_V3 = {
  ...SCHEMA_V2,
  formFields: 'companyId',
} as const;

/**
 * Version 4, additive: tickets by [currency+received_at], so the last rate the user used for a currency
 * (app/spending/last-rate.ts) reads that currency's newest tickets instead of every ticket on the device.
 */
export const SCHEMA_V4 = {
  ...SCHEMA_V3,
  tickets: `${SCHEMA_V2.tickets}, [currency+received_at]`,
} as const;

export function createDb(name: string = DB_NAME): AppDb {
  // Strict durability: an acknowledged outbox write survives a crash or power loss (Chromium
  // otherwise reports success before the data reaches the disk).
  const db = new Dexie(name, { chromeTransactionDurability: 'strict' }) as AppDb;
  db.version(1).stores(SCHEMA_V1);
  db.version(2).stores(SCHEMA_V2);
  db.version(3).stores(SCHEMA_V3);
  db.version(4).stores(SCHEMA_V4);
  // A newer tab upgrading the schema must not be blocked by this one: close and let it reload.
  db.on('versionchange', () => {
    db.close();
    return false;
  });
  return db;
}

/** The app's database. */
export const db: AppDb = createDb();
