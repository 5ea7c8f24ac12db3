// Files entering the import without the HTTP route (store-uploads.ts), as the SAT sync does: checked per
// file, stored as one pack, imported, and the pack dropped once every file of it is done.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { tickets, uploads } from '../../../src/server/db/schema';
import { memoryFileStore } from '../../../src/server/files/file-store';
import { FILE_MAX_BYTES, importFiles, storeUploads } from '../../../src/server/imports/store-uploads';
import { isPackKey } from '../../../src/server/imports/upload-pack';
import { DRIVERS } from '../helpers/harness';
import { fixture, importEnvPerSuite, userWith, utf8, type ImportEnv } from './import-helpers';

const FILES = ['cfdi40-ingreso-retenciones-sw-stamped.xml', 'cfdi40-pago20-sw-stamped.xml'];

describe.each(DRIVERS)('storeUploads / importFiles on %s', (driver) => {
  let env: ImportEnv;
  importEnvPerSuite(driver, (e) => (env = e), { manualJobs: true });

  it('stores the accepted files as one pack before their rows, refusing the others per file', async () => {
    const user = await userWith(env, ['URE180429TM6']);
    const files = memoryFileStore();
    const deps = { db: env.h.database.db, files, clock: () => new Date() };
    const rows = await storeUploads(deps, user.userId, null, [
      ...FILES.map((f) => ({ name: f, size: fixture(f).byteLength, bytes: () => fixture(f) })),
      { name: 'nota.txt', size: 4, bytes: () => utf8('hola') },
      { name: 'grande.xml', size: FILE_MAX_BYTES + 1, bytes: () => { throw new Error('no debe leerse'); } },
    ]);
    expect(rows.map((r) => [r.status, r.reason])).toEqual([
      ['recibido', null],
      ['recibido', null],
      ['rechazado', MSG.importFileType],
      ['rechazado', MSG.importFileTooLarge],
    ]);
    const stored = await env.h.database.db.select().from(uploads).where(eq(uploads.userId, user.userId));
    const keys = new Set(stored.filter((r) => r.status === 'recibido').map((r) => r.fileKey));
    expect(keys.size).toBe(1);
    const [key] = [...keys];
    expect(isPackKey(key!)).toBe(true);
    expect(files.size).toBe(1);
    expect(stored.filter((r) => r.status === 'rechazado').every((r) => r.fileKey === null)).toBe(true);
  });

  it('imports at once and drops the pack when done', async () => {
    const user = await userWith(env, ['URE180429TM6']);
    const files = memoryFileStore();
    const deps = { db: env.h.database.db, files, clock: () => new Date() };
    const rows = await importFiles(deps, user.userId, user.clientIds.get('URE180429TM6')!, FILES.map((f) => ({ name: f, size: fixture(f).byteLength, bytes: () => fixture(f) })));
    const after = await env.h.database.db.select().from(uploads).where(eq(uploads.userId, user.userId));
    expect(after.map((r) => [r.name, r.status, r.fileKey]).sort()).toEqual(FILES.map((f) => [f, 'importado', null]).sort());
    expect(after.map((r) => r.id).sort()).toEqual(rows.map((r) => r.id).sort());
    const ts = await env.h.database.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.userId, user.userId));
    expect(ts).toHaveLength(2);
    // What is left in the store: the two receipts' XML, not the pack.
    expect(files.size).toBe(2);
  });
});
