import { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { lastRateOf, loadLastRate } from '../../../src/app/spending/last-rate';
import { createDb, SCHEMA_V3, type AppDb, type TicketRow } from '../../../src/offline/db';

const t = (id: string, received_at: string, amount: string, currency: string, original_amount: string | null) => ({
  ticket_id: id, received_at, amount, currency, original_amount,
});

describe('the last rate the user used for a currency', () => {
  const tickets = [
    t('a', '2026-11-02T12:00:00-06:00', '172.00', 'USD', '10.00'),
    t('b', '2026-11-10T12:00:00-06:00', '215.00', 'USD', '12.50'),
    t('c', '2026-11-20T12:00:00-06:00', '500.00', 'EUR', '25.00'),
    t('d', '2026-11-21T12:00:00-06:00', '99.00', 'MXN', null),
    t('e', '2026-11-22T12:00:00-06:00', '10.00', 'USD', null),
  ];

  it('is the newest entry in that currency: its pesos over its original amount, 2 decimals', () => {
    expect(lastRateOf(tickets, 'USD')).toEqual({ currency: 'USD', rate: '17.20', date: '2026-11-10' });
    expect(lastRateOf(tickets, 'EUR')).toEqual({ currency: 'EUR', rate: '20.00', date: '2026-11-20' });
  });

  it('is null for pesos, for a currency never used, or when no entry has both amounts', () => {
    expect(lastRateOf(tickets, 'MXN')).toBeNull();
    expect(lastRateOf(tickets, 'JPY')).toBeNull();
    expect(lastRateOf([t('x', '2026-11-01T12:00:00-06:00', '0.00', 'CAD', '5.00'), t('y', '2026-11-01T12:00:00-06:00', '10', 'CAD', 'abc')], 'CAD')).toBeNull();
  });
});

/** Counts the rows IndexedDB hands out (cursor steps and getAll results) until stop(). */
function rowsRead() {
  let rows = 0;
  const cursor = IDBCursor.prototype;
  const continueOf = cursor.continue;
  cursor.continue = function (this: IDBCursor, key?: IDBValidKey) {
    rows++;
    return continueOf.call(this, key);
  };
  const getAlls = [IDBObjectStore.prototype, IDBIndex.prototype].map((proto) => {
    const getAll = proto.getAll;
    proto.getAll = function (this: IDBObjectStore | IDBIndex, ...args: Parameters<IDBObjectStore['getAll']>) {
      const req = getAll.apply(this, args);
      req.addEventListener('success', () => (rows += req.result.length));
      return req;
    } as typeof getAll;
    return { proto, getAll };
  });
  return {
    count: () => rows,
    stop() {
      cursor.continue = continueOf;
      for (const { proto, getAll } of getAlls) proto.getAll = getAll as never;
    },
  };
}

describe('the last rate, read from the device', () => {
  let db: AppDb | undefined;
  let n = 0;
  afterEach(async () => db?.delete());

  const row = (id: string, received_at: string, amount: string, currency: string, original_amount: string | null) =>
    ({ ...t(id, received_at, amount, currency, original_amount), rfc: 'GODE561231GR8', month: received_at.slice(0, 7) }) as unknown as TicketRow;

  it('reads only the newest tickets of that currency through its index, not every ticket on the device', async () => {
    db = createDb(`last-rate-${++n}`);
    const pesos = Array.from({ length: 500 }, (_, i) => row(`m${String(i).padStart(4, '0')}`, `2026-11-${String(1 + (i % 28)).padStart(2, '0')}T12:00:00-06:00`, '99.00', 'MXN', null));
    await db.tickets.bulkPut([
      ...pesos,
      row('a', '2026-11-02T12:00:00-06:00', '172.00', 'USD', '10.00'),
      row('b', '2026-11-10T12:00:00-06:00', '215.00', 'USD', '12.50'),
      row('e', '2026-11-22T12:00:00-06:00', '10.00', 'USD', null),
      row('c', '2026-11-20T12:00:00-06:00', '500.00', 'EUR', '25.00'),
    ]);
    const read = rowsRead();
    try {
      expect(await loadLastRate(db, 'USD')).toEqual({ currency: 'USD', rate: '17.20', date: '2026-11-10' });
      // The entry without a peso amount, then the one that gives the rate: never the 500 in pesos.
      expect(read.count()).toBeLessThanOrEqual(2);
      expect(await loadLastRate(db, 'EUR')).toEqual({ currency: 'EUR', rate: '20.00', date: '2026-11-20' });
      expect(await loadLastRate(db, 'JPY')).toBeNull();
      expect(await loadLastRate(db, 'MXN')).toBeNull();
      expect(read.count()).toBeLessThanOrEqual(3);
    } finally {
      read.stop();
    }
  });

  it('finds the tickets a device kept before the index existed (Dexie v3 upgraded)', async () => {
    const name = `last-rate-${++n}`;
    const v3 = new Dexie(name);
    v3.version(3).stores(SCHEMA_V3);
    await v3.open();
    await v3.table('tickets').bulkPut([row('a', '2026-11-02T12:00:00-06:00', '172.00', 'USD', '10.00')]);
    v3.close();
    db = createDb(name);
    expect(await loadLastRate(db, 'USD')).toEqual({ currency: 'USD', rate: '17.20', date: '2026-11-02' });
  });
});
