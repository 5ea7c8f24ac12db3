// The upload quota's running total (migration 0019, read by upload-limits.ts storageUsed): after uploads
// of files and zips, refusals, status changes and deletions it equals the sum it replaces — the sizes of
// the user's top-level uploads not refused — and no other user's uploads move it.
import JSZip from 'jszip';
import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { uploads } from '../../../src/server/db/schema';
import { storageUsed } from '../../../src/server/imports/upload-limits';
import { DRIVERS } from '../helpers/harness';
import { fixture, importEnvPerSuite, settled, upload, userWith, utf8, type ImportEnv, type User } from './import-helpers';

const XML = 'cfdi40-ingreso-retenciones-sw-stamped.xml'; // EKU9003173C9 → URE180429TM6
const XML_B = 'cfdi40-ingreso-acuentaterceros-sw-stamped.xml';

describe.each(DRIVERS)('upload storage total on %s', (driver) => {
  let env!: ImportEnv;
  importEnvPerSuite(driver, (e) => (env = e));

  /** What the quota counted before the running total: summed over the rows. */
  const summed = async (user: User) => {
    const [row] = await env.h.database.db
      .select({ n: sql<string>`coalesce(sum(${uploads.size}), 0)::bigint` })
      .from(uploads)
      .where(and(eq(uploads.userId, user.userId), isNull(uploads.parentId), ne(uploads.status, 'rechazado')));
    return Number(row?.n ?? 0);
  };

  it('follows uploads, zips, refusals and deletions, and only the owner’s', async () => {
    const db = env.h.database.db;
    const user = await userWith(env, ['URE180429TM6']);
    const other = await userWith(env, ['URE180429TM6']);
    expect(await storageUsed(db, user.userId)).toBe(0);

    const xml = fixture(XML);
    const zip = await new JSZip().file('cfdi/b.xml', fixture(XML_B)).generateAsync({ type: 'uint8array' });
    const junk = utf8('no soy un CFDI');
    // Looks like XML when stored, refused by the job: counted, then not.
    const broken = utf8('<?xml version="1.0"?><cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0"/>');
    const first = await upload(env, user, [
      { name: 'a.xml', bytes: xml },
      { name: 'lote.zip', bytes: zip },
      { name: 'nota.xml', bytes: junk },
      { name: 'roto.xml', bytes: broken },
    ]);
    expect(first.status).toBe(200);
    const ids: string[] = first.json.response.files.map((f: { id: string }) => f.id);
    // Counted as soon as they are stored; what is not a CFDI by its first bytes is refused at once.
    expect(first.json.response.files.map((f: { status: string }) => f.status)).toEqual(['recibido', 'recibido', 'rechazado', 'recibido']);
    expect(await storageUsed(db, user.userId)).toBe(xml.byteLength + zip.byteLength + broken.byteLength);

    const rows = await settled(env, ids);
    expect(rows.find((r) => r.id === ids[3])?.status).toBe('rechazado');
    // The zip's entry never counts (its bytes are the zip's).
    expect(rows.some((r) => r.parentId === ids[1])).toBe(true);
    expect(await storageUsed(db, user.userId)).toBe(xml.byteLength + zip.byteLength);
    expect(await storageUsed(db, user.userId)).toBe(await summed(user));

    const theirs = await upload(env, other, [{ name: 'otro.xml', bytes: fixture(XML_B) }]);
    await settled(env, theirs.json.response.files.map((f: { id: string }) => f.id));
    expect(await storageUsed(db, user.userId)).toBe(xml.byteLength + zip.byteLength);

    // A size change and a deletion in one statement each, over rows of both users.
    await db.update(uploads).set({ size: sql`${uploads.size} + 10` }).where(inArray(uploads.userId, [user.userId, other.userId]));
    expect(await storageUsed(db, user.userId)).toBe(await summed(user));
    expect(await storageUsed(db, other.userId)).toBe(await summed(other));
    await db.delete(uploads).where(eq(uploads.id, ids[1]!));
    expect(await storageUsed(db, user.userId)).toBe(xml.byteLength + 10);
    expect(await storageUsed(db, user.userId)).toBe(await summed(user));
    expect(await storageUsed(db, other.userId)).toBe(await summed(other));
  }, 60_000);
});
