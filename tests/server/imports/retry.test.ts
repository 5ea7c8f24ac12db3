// A restart mid-way loses nothing: the job fails part-way (the files store dies after
// a few writes), pg-boss would run it again, and the second run finishes the work — every CFDI one
// ticket, none twice, statuses final.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { tickets, uploads } from '../../../src/server/db/schema';
import type { FileStore } from '../../../src/server/files/file-store';
import { giveUp, STALE_UPLOAD_MS, sweepStaleUploads } from '../../../src/server/imports/queue';
import { MSG } from '../../../src/domain/messages';
import { processUploads } from '../../../src/server/imports/process';
import { DRIVERS } from '../helpers/harness';
import { fixture, importEnvPerSuite, upload, userWith, type ImportEnv } from './import-helpers';
import { makeZip } from './zip-maker';

const FILES = ['cfdi40-ingreso-retenciones-sw-stamped.xml', 'cfdi40-ingreso-acuentaterceros-sw-stamped.xml', 'cfdi40-pago20-sw-stamped.xml'];

/** The store, failing every write after the first `allowed`. */
function dyingStore(inner: FileStore, allowed: number): FileStore {
  let writes = 0;
  return {
    put: async (key, bytes) => {
      if (++writes > allowed) throw new Error('disco lleno (prueba)');
      return inner.put(key, bytes);
    },
    get: (key) => inner.get(key),
    delete: (key) => inner.delete(key),
  };
}

describe.each(DRIVERS)('import retried after a failure on %s', (driver) => {
  let env: ImportEnv;
  // The test runs the job by hand.
  importEnvPerSuite(driver, (e) => (env = e), { manualJobs: true });

  it('finishes on the second run what the first left undone, with no duplicate tickets', async () => {
    const user = await userWith(env, ['URE180429TM6']);
    const zip = makeZip(FILES.map((f, i) => ({ name: `z${i}.xml`, data: fixture(f) })));
    const r = await upload(env, user, [...FILES.map((f) => ({ name: f, bytes: fixture(f) })), { name: 'lote.zip', bytes: zip }]);
    const ids = (r.json.response.files as { id: string }[]).map((f) => f.id);
    const db = env.h.database.db;
    const deps = { db, clock: () => new Date() };
    await expect(processUploads({ ...deps, files: dyingStore(env.h.files, 1) }, user.userId, ids)).rejects.toThrow('disco lleno');
    expect(await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.userId, user.userId))).toEqual([]);

    await processUploads({ ...deps, files: env.h.files }, user.userId, ids);
    const rows = await db.select().from(uploads).where(eq(uploads.userId, user.userId));
    expect(rows.filter((x) => !['importado', 'duplicado'].includes(x.status)).map((x) => [x.name, x.status, x.reason])).toEqual([]);
    // The three top-level XMLs imported; the zip's copies of them are duplicates of those tickets.
    const ts = await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.userId, user.userId));
    expect(ts).toHaveLength(3);
    expect(rows.filter((x) => x.parentId !== null).every((x) => x.status === 'duplicado' && x.ticketIds.length === 1)).toBe(true);
    // A third run finds nothing left to do.
    await processUploads({ ...deps, files: env.h.files }, user.userId, ids);
    expect(await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.userId, user.userId))).toHaveLength(3);
  }, 30_000);

  it('after the last retry refuses what is unfinished with the generic message and deletes the stored pack', async () => {
    const user = await userWith(env, ['URE180429TM6']);
    const r = await upload(env, user, [{ name: FILES[0]!, bytes: fixture(FILES[0]!) }, { name: FILES[1]!, bytes: fixture(FILES[1]!) }]);
    const ids = (r.json.response.files as { id: string }[]).map((f) => f.id);
    const db = env.h.database.db;
    const [{ fileKey }] = (await db.select({ fileKey: uploads.fileKey }).from(uploads).where(eq(uploads.id, ids[0]!))) as [{ fileKey: string }];
    expect(await env.h.files.get(fileKey)).not.toBeNull();
    // Every run fails (the store can write nothing), until pg-boss has no retries left.
    await expect(processUploads({ db, clock: () => new Date(), files: dyingStore(env.h.files, 0) }, user.userId, ids)).rejects.toThrow('disco lleno');
    await giveUp({ db, clock: () => new Date(), files: env.h.files }, { userId: user.userId, uploadIds: ids });
    const rows = await db.select().from(uploads).where(eq(uploads.userId, user.userId));
    expect(rows.map((x) => [x.status, x.reason])).toEqual(ids.map(() => ['rechazado', MSG.importFailed]));
    expect(await env.h.files.get(fileKey)).toBeNull();
  }, 30_000);

  it('sweeps uploads left unfinished long after their last try (a job expired with its process), and only those', async () => {
    const user = await userWith(env, ['URE180429TM6']);
    const zip = makeZip([{ name: 'a.xml', data: fixture(FILES[0]!) }]);
    const r = await upload(env, user, [{ name: FILES[1]!, bytes: fixture(FILES[1]!) }, { name: 'lote.zip', bytes: zip }]);
    const ids = (r.json.response.files as { id: string }[]).map((f) => f.id);
    const db = env.h.database.db;
    const [{ fileKey }] = (await db.select({ fileKey: uploads.fileKey }).from(uploads).where(eq(uploads.id, ids[0]!))) as [{ fileKey: string }];
    const deps = { db, clock: () => new Date(), files: env.h.files };
    // Nothing is stale yet: the sweep leaves them to their job.
    expect(await sweepStaleUploads(deps)).toBe(0);
    expect((await db.select().from(uploads).where(eq(uploads.userId, user.userId))).every((x) => x.status === 'recibido')).toBe(true);
    // Hours later, still 'recibido': refused with the generic message, and the pack is gone.
    const later = new Date(Date.now() + STALE_UPLOAD_MS + 60_000);
    expect(await sweepStaleUploads(deps, later)).toBeGreaterThanOrEqual(2);
    const rows = await db.select().from(uploads).where(eq(uploads.userId, user.userId));
    expect(rows.map((x) => [x.status, x.reason])).toEqual(rows.map(() => ['rechazado', MSG.importFailed]));
    expect(await env.h.files.get(fileKey)).toBeNull();
  }, 30_000);
});
