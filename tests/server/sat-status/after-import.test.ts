// New imports ask SAT for their CFDI's status a few seconds after they commit (not only at the hourly
// sweep), when the status service is enabled — only for the receipts that import made, against the
// local fake SAT. Without a service nothing is asked.
import { eq, inArray } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/server/app';
import { clients, receipts } from '../../../src/server/db/schema';
import { startImportWorker } from '../../../src/server/imports/queue';
import { startBoss } from '../../../src/server/jobs/boss';
import { devMailboxMailer } from '../../../src/server/mail/mailer';
import { readCfdi } from '../../../src/server/cfdi/read';
import { registerSatStatus, type SatStatusTrigger } from '../../../src/server/sat-status/jobs';
import { createHarness, DRIVERS, freshIp, type Harness } from '../helpers/harness';
import { fixtureXml } from '../receipts/receipt-fixtures';
import { startFakeSat, type FakeSat } from './fake-sat';

const VIGENTE = 'cfdi40-ingreso-eku-descuento-stamped.xml'; // receiver MCI7306249Y1
const CANCELADO = 'cfdi33-ingreso-traslados-retenciones-stamped.xml'; // receiver COSC8001137NA
const uuidOf = (file: string) => {
  const read = readCfdi(fixtureXml(file));
  if (!read.ok) throw new Error(read.reason);
  return read.cfdi.uuid;
};

describe.each(DRIVERS)('SAT status asked right after an import on %s', (driver) => {
  let h: Harness;
  let sat: FakeSat;
  let boss: PgBoss;
  let trigger: SatStatusTrigger | null;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    sat = await startFakeSat();
    sat.answer(uuidOf(VIGENTE), 'vigente');
    sat.answer(uuidOf(CANCELADO), 'cancelado');
    h = await createHarness(driver);
    boss = await startBoss(h.database, { supervise: false });
    // As main.ts wires it: the trigger registerSatStatus answers is the import's afterImport.
    trigger = await registerSatStatus(boss, h.database.db, h.files, sat.url);
    const imports = await startImportWorker(boss, { db: h.database.db, files: h.files, clock: () => new Date(), afterImport: trigger ? (ids) => trigger!.checkSoon(ids) : undefined });
    app = createApp({ db: h.database.db, files: h.files, mailer: devMailboxMailer(h.database.db), imports, config: { trustProxy: true } });
  }, 60_000);
  afterAll(async () => {
    await boss?.stop({ graceful: true, wait: true, timeout: 15_000 });
    await h?.close();
    await sat?.stop();
  });

  it('answers no trigger when no status service is configured', async () => {
    expect(await registerSatStatus(boss, h.database.db, h.files, undefined)).toBeNull();
    // Registered again for the next test (the call above unscheduled the sweep).
    trigger = await registerSatStatus(boss, h.database.db, h.files, sat.url);
    expect(trigger).not.toBeNull();
  });

  it("writes the imported receipts' SAT status within seconds, asking only about them", async () => {
    const u = await h.signUp('satimp');
    for (const rfc of ['MCI7306249Y1', 'COSC8001137NA']) await h.database.db.insert(clients).values({ userId: u.userId, rfc, name: `Cuenta ${rfc}` });
    const asked = sat.expressions.length;
    const form = new FormData();
    for (const f of [VIGENTE, CANCELADO]) form.append('file', new Blob([new Uint8Array(fixtureXml(f))]), f);
    const res = await app.request(`/api/v3/users/${u.userId}/files`, { method: 'POST', headers: { 'x-access-token': u.token, 'x-forwarded-for': freshIp() }, body: form });
    expect(res.status).toBe(200);

    const mine = () =>
      h.database.db
        .select({ uuid: receipts.uuid, s: receipts.satStatus })
        .from(receipts)
        .where(eq(receipts.userId, u.userId))
        .orderBy(receipts.uuid);
    await expect
      .poll(async () => (await mine()).map((r) => [r.uuid, r.s]), { timeout: 25_000, interval: 250 })
      .toEqual(
        [
          [uuidOf(VIGENTE), 'Vigente'],
          [uuidOf(CANCELADO), 'Cancelado'],
        ].sort((a, b) => a[0]!.localeCompare(b[0]!)),
      );
    // Exactly these two CFDI were asked about — not the demo's receipts still without a status.
    const newly = sat.expressions.slice(asked);
    expect(newly).toHaveLength(2);
    expect(newly.every((e) => [uuidOf(VIGENTE), uuidOf(CANCELADO)].some((id) => e.toUpperCase().includes(id)))).toBe(true);
    const withStatus = await h.database.db.select({ id: receipts.id }).from(receipts).where(inArray(receipts.satStatus, ['Vigente', 'Cancelado']));
    expect(withStatus).toHaveLength(2);
  }, 40_000);
});
