// Idempotency-Key on a multipart upload ('Importar CFDIs'): the fingerprint covers the files, not the
// random multipart boundary — the same files again (a rebuilt form, as the outbox sends it) replay the
// first response; other files under the same key are a 422, and nothing of them is imported.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { tickets, uploads } from '../../../src/server/db/schema';
import { DRIVERS } from '../helpers/harness';
import { fixture, importEnvPerSuite, settled, upload, userWith, utf8, type ImportEnv } from '../imports/import-helpers';

const A = 'cfdi40-ingreso-retenciones-sw-stamped.xml'; // EKU9003173C9 → URE180429TM6
const B = 'cfdi40-ingreso-acuentaterceros-sw-stamped.xml'; // EKU9003173C9 → URE180429TM6

describe.each(DRIVERS)('Idempotency-Key on multipart uploads on %s', (driver) => {
  let env: ImportEnv;
  importEnvPerSuite(driver, (e) => { env = e; });

  it('replays the same files under the same key (new boundary), refuses other files with 422, importing once', async () => {
    const user = await userWith(env, ['URE180429TM6']);
    const key = crypto.randomUUID();
    const first = await upload(env, user, [{ name: 'a.xml', bytes: fixture(A) }], { key });
    expect(first.status).toBe(200);
    const again = await upload(env, user, [{ name: 'a.xml', bytes: fixture(A) }], { key });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);

    const otherFile = await upload(env, user, [{ name: 'a.xml', bytes: fixture(B) }], { key });
    expect(otherFile.status).toBe(422);
    expect(otherFile.json).toEqual({ errors: [MSG.idempotencyMismatch] });
    // Same bytes under another name, or one more file: another request too.
    const otherName = await upload(env, user, [{ name: 'b.xml', bytes: fixture(A) }], { key });
    expect(otherName.status).toBe(422);
    const more = await upload(env, user, [{ name: 'a.xml', bytes: fixture(A) }, { name: 'b.xml', bytes: fixture(B) }], { key });
    expect(more.status).toBe(422);

    await settled(env, [first.json.response.files[0].id]);
    const db = env.h.database.db;
    expect(await db.select({ id: uploads.id }).from(uploads).where(eq(uploads.userId, user.userId))).toHaveLength(1);
    expect(await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.userId, user.userId))).toHaveLength(1);
  }, 30_000);

  it('still lets the route read the body it hashed: a fresh key imports, and a refused file is stored as refused', async () => {
    const user = await userWith(env, ['URE180429TM6']);
    const r = await upload(env, user, [{ name: 'b.xml', bytes: fixture(B) }, { name: 'nota.txt', bytes: utf8('hola') }], { key: crypto.randomUUID() });
    expect(r.status).toBe(200);
    expect(r.json.response.files.map((f: { name: string; status: string }) => [f.name, f.status])).toEqual([
      ['b.xml', 'recibido'],
      ['nota.txt', 'rechazado'],
    ]);
    const rows = await settled(env, [r.json.response.files[0].id]);
    expect(rows.find((x) => x.name === 'b.xml')?.status).toBe('importado');
  }, 30_000);
});
