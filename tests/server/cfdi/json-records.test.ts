// The JSON records both PAC adapters keep by UUID (src/server/cfdi/json-records.ts): the sandbox's ledger
// and Finkok's, in memory or in the files store, behave the same.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileFinkokLedger, memoryFinkokLedger, type FinkokRecord } from '../../../src/server/cfdi/finkok-ledger';
import { jsonRecords } from '../../../src/server/cfdi/json-records';
import { fileLedger, memoryLedger } from '../../../src/server/cfdi/sandbox-ledger';
import { diskFileStore, memoryFileStore } from '../../../src/server/files/file-store';

const uuid = (n: number) => `AB${String(n).padStart(6, '0')}-0000-4000-8000-000000000000`;
const record = (n: number): FinkokRecord => ({ uuid: uuid(n), rfcEmisor: 'EKU9003173C9', rfcReceptor: 'XIQB891116QE4', total: `${n}.00`, cancellation: null, acuse: null });

describe('JSON records by UUID', () => {
  const dir = mkdtempSync(join(tmpdir(), 'json-records-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('in memory: keeps copies, and drops the oldest past the limit', async () => {
    for (const records of [jsonRecords<FinkokRecord>(undefined, 'x', 2), memoryFinkokLedger(2)]) {
      const first = record(1);
      await records.put(first);
      first.total = 'changed';
      const got = (await records.get(uuid(1)))!;
      expect(got.total).toBe('1.00');
      got.total = 'changed too';
      expect((await records.get(uuid(1)))!.total).toBe('1.00');
      await records.put(record(2));
      await records.put(record(1)); // written again: now the newest
      await records.put(record(3));
      expect(await records.get(uuid(2))).toBeUndefined();
      expect((await records.get(uuid(1)))?.total).toBe('1.00');
      expect((await records.get(uuid(3)))?.total).toBe('3.00');
    }
  });

  it('in the files store: one JSON per UUID under its prefix, read back by a new instance after a restart', async () => {
    const files = memoryFileStore();
    await fileFinkokLedger(files).put(record(7));
    const key = `finkok/ab/${uuid(7).toLowerCase()}.json`;
    expect(JSON.parse(new TextDecoder().decode((await files.get(key))!))).toEqual(record(7));
    await fileFinkokLedger(diskFileStore(dir), 'pac').put(record(8));
    expect(await fileFinkokLedger(diskFileStore(dir), 'pac').get(uuid(8))).toEqual(record(8));
    expect(await fileFinkokLedger(diskFileStore(dir), 'other').get(uuid(8))).toBeUndefined();
  });

  it('in the files store: refuses to write a record that is not named by a UUID, and finds none for one', async () => {
    const files = memoryFileStore();
    for (const records of [fileFinkokLedger(files), fileLedger(files) as unknown as ReturnType<typeof fileFinkokLedger>]) {
      await expect(records.put({ ...record(1), uuid: '../../etc/passwd' })).rejects.toThrow(/not a UUID/);
      expect(await records.get('../../etc/passwd')).toBeUndefined();
    }
    expect(files.size).toBe(0);
  });

  it('the sandbox ledger keeps its records the same way', async () => {
    const files = memoryFileStore();
    const sandbox = { ...record(5), tipo: 'I', moneda: 'MXN', tipoCambio: '1', stampedAt: '2026-01-01T00:00:00.000Z', global: false, relates: [], relatedBy: [], cancellation: null };
    await fileLedger(files).put(sandbox);
    expect(await files.get(`sandbox-pac/ab/${uuid(5).toLowerCase()}.json`)).not.toBeNull();
    expect(await memoryLedger(1).get(uuid(5))).toBeUndefined();
  });
});
