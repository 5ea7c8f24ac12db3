// The SAT sync benchmark: one account's daily sync of 1,000 CFDI (issued and received) from the
// simulated SAT portal through the import pipeline (uploads rows, files store on disk, processUploads), on
// PGlite — or on PostgreSQL when DATABASE_URL is set. The 1,000 sealed and stamped CFDI are made before
// the timing starts. Goal: < 5 s. `tsx tests/bench/sat-sync.ts [n]`.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { count, eq } from 'drizzle-orm';
import { runMigrations } from '../../src/server/db/migrate';
import { clients, tickets, users } from '../../src/server/db/schema';
import { seed } from '../../src/server/seed';
import { DEMO_RFCS } from '../../src/server/db/demo-accounts';
import { diskFileStore } from '../../src/server/files/file-store';
import { processUploads } from '../../src/server/imports/process';
import { devMailboxMailer } from '../../src/server/mail/mailer';
import { DEMO_SAT_CIECS, SimulatedSatPortal, seedSatPortal } from '../../src/server/sat-sync/simulated-portal';
import { saveCiec } from '../../src/server/sat-sync/store';
import { mexicoDayBefore, runSatSync } from '../../src/server/sat-sync/sync';
import { demoMerchants } from '../../src/server/wiring';
import { openBenchDatabase } from './bench-database';

export interface SatSyncBench {
  cfdi: number;
  imported: number;
  seconds: number;
  perSecond: number;
  /** Making the CFDI (outside the timing). */
  prepareSeconds: number;
  driver: 'pglite' | 'pg';
}

export async function satSyncBench(n = 1_000): Promise<SatSyncBench> {
  const { database, drop, driver } = await openBenchDatabase();
  let filesDir: string | null = null;
  try {
    await runMigrations(database);
    await seed(database.db);
    await seedSatPortal(database.db);
    const db = database.db;
    const now = new Date();
    const clock = () => now;
    const rfc = DEMO_RFCS.persona.rfc;
    const tag = randomBytes(3).toString('hex');
    const [user] = await db.insert(users).values({ username: `satbench${tag}`, email: `satbench${tag}@example.com`, passwordHash: 'x' }).returning({ id: users.id });
    const [client] = await db
      .insert(clients)
      .values({ userId: user!.id, rfc, firstName: DEMO_RFCS.persona.firstName, lastName: DEMO_RFCS.persona.lastName, zipCode: DEMO_RFCS.persona.zipCode, taxRegime: DEMO_RFCS.persona.taxRegime, planId: 2 })
      .returning({ id: clients.id });
    await saveCiec(db, client!.id, DEMO_SAT_CIECS[rfc]!, now);
    const portal = new SimulatedSatPortal(db, clock, demoMerchants, { perDay: n });
    const day = mexicoDayBefore(now, 1);
    const p0 = performance.now();
    await portal.dayFiles(rfc, day);
    const prepareSeconds = (performance.now() - p0) / 1000;

    // The files store on disk, as the server keeps it.
    filesDir = await mkdtemp(join(tmpdir(), 'cc-sat-bench-'));
    const deps = { db, files: diskFileStore(filesDir), mailer: devMailboxMailer(db), clock, portal, processUploads };
    const t0 = performance.now();
    const outcome = await runSatSync(deps, { clientId: client!.id, days: [day] });
    const seconds = (performance.now() - t0) / 1000;
    const [made] = await db.select({ n: count() }).from(tickets).where(eq(tickets.clientId, client!.id));
    if (outcome.state !== 'done' || outcome.imported !== n || made?.n !== n) {
      throw new Error(`esperaba ${n} comprobantes importados, hubo ${outcome.state === 'done' ? outcome.imported : outcome.state} (${made?.n} tickets)`);
    }
    const r2 = (x: number) => Math.round(x * 100) / 100;
    return { cfdi: n, imported: outcome.imported, seconds: r2(seconds), perSecond: Math.round(n / seconds), prepareSeconds: r2(prepareSeconds), driver };
  } finally {
    await database.close();
    await drop();
    if (filesDir) await rm(filesDir, { recursive: true, force: true });
  }
}

/** For run.ts: `satSyncSection({ report })`. */
export async function satSyncSection(deps: { report: (key: string, value: string | number) => void; n?: number }): Promise<void> {
  const r = await satSyncBench(deps.n);
  deps.report(`sat-sync-${r.driver}-s`, r.seconds);
  deps.report(`sat-sync-${r.driver}-per-s`, r.perSecond);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await satSyncBench(Number(process.argv[2] ?? 1_000));
  console.log(JSON.stringify(r));
  console.log(r.seconds < 5 ? `OK: ${r.imported} CFDI del SAT importados en ${r.seconds} s (meta < 5 s)` : `LENTO: ${r.seconds} s (meta < 5 s)`);
}
