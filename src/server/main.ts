// Entry point (`tsx src/server/main.ts`): database, migrations, seeds, jobs, then the PWA and the API on one port.
// WORKERS=N (PostgreSQL only): the primary migrates and seeds once, then forks N API processes sharing the port.
import cluster from 'node:cluster';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { readEnv, readWorkerIndex, readWorkers, WORKER_INDEX, type ServerEnv } from './config';
import { createDb } from './db/client';
import { analyzePglite, runMigrations } from './db/migrate';
import { seed } from './seed';
import { DEMO_USER } from './db/demo-accounts';
import { seedDemoInvoices } from './demo/demo-invoices';
import { seedDemoTickets } from './demo/demo-tickets';
import { diskFileStore } from './files/file-store';
import { registerMaintenance, startBoss } from './jobs/boss';
import { connectUploadsBus } from './imports/changes';
import { dbLimits } from './lib/ip-limiter';
import { processUploads } from './imports/process';
import { startImportWorker } from './imports/queue';
import { registerReclassify } from './imports/reclassify';
import { startInvoiceWorker } from './invoicing/queue';
import { startRenewalWorker } from './plans/jobs';
import { seedDemoMerchantTickets } from './merchants/demo-tickets';
import { devMailboxMailer, smtpMailer } from './mail/mailer';
import { registerSatStatus } from './sat-status/jobs';
import { startSatSyncWorker } from './sat-sync/jobs';
import { portalFromEnv } from './sat-sync/select';
import { seedSatPortal } from './sat-sync/simulated-portal';
import { demoMerchants, merchantSide } from './wiring';
import { pacFromEnv } from './pac-select';

/** Migrations and demo data: once per start, before any API process serves. */
async function prepare(env: ServerEnv, database: Awaited<ReturnType<typeof createDb>>): Promise<void> {
  await runMigrations(database);
  await seed(database.db, { supportPassword: env.supportPassword });
  const files = diskFileStore(join(env.dataDir, 'files'));
  await seedDemoTickets(database.db, files);
  await seedDemoInvoices(database.db, files);
  await seedDemoMerchantTickets(database.db);
  await seedSatPortal(database.db);
  await analyzePglite(database);
}

/**
 * The primary of WORKERS=N: prepares the database, starts the first API process (which also creates
 * pg-boss's schema and queues) and, once it listens, the others. One that dies is replaced.
 */
async function primary(env: ServerEnv, workers: number): Promise<void> {
  const database = await createDb({ databaseUrl: env.databaseUrl });
  await prepare(env, database);
  await database.close();
  let stopping = false;
  const fork = (index: number) => {
    const worker = cluster.fork({ [WORKER_INDEX]: String(index) });
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      console.error(`Proceso ${index} terminó (${signal ?? code}); se inicia otro.`);
      setTimeout(() => fork(index), 1000).unref();
    });
    return worker;
  };
  await new Promise<void>((resolve, reject) => {
    const first = fork(1);
    first.once('listening', () => resolve());
    first.once('exit', () => reject(new Error('el primer proceso de la API terminó al arrancar')));
  });
  for (let i = 2; i <= workers; i++) fork(i);
  console.log(`Cuentas Claras: ${workers} procesos de la API en el puerto ${env.port}`);
  const stop = () => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function main(): Promise<void> {
  const env = readEnv();
  const workers = readWorkers();
  if (workers > 1 && cluster.isPrimary) return primary(env, workers);
  const index = readWorkerIndex();
  const database = await createDb({ databaseUrl: env.databaseUrl, dataDir: env.databaseUrl ? undefined : join(env.dataDir, 'pglite') });
  if (cluster.isPrimary) await prepare(env, database);
  const files = diskFileStore(join(env.dataDir, 'files'));
  // Every process takes jobs (pg-boss hands each to one); only the first evaluates schedules and maintains.
  const boss = await startBoss(database, { supervise: index === 1 });
  connectUploadsBus(database.bus);
  await registerMaintenance(boss, database);
  // Receipts stored before the books knew CFDI types are re-read once, in the background.
  await registerReclassify(boss, database.db, files);
  const sat = await registerSatStatus(boss, database.db, files, env.satEstadoUrl);
  // New imports are checked against SAT's status service within seconds, not at the next hourly sweep.
  const imports = await startImportWorker(boss, {
    db: database.db,
    files,
    clock: () => new Date(),
    afterImport: sat ? (ids) => sat.checkSoon(ids) : undefined,
  });

  const mailer = env.smtpUrl ? smtpMailer(env.smtpUrl, env.mailFrom) : devMailboxMailer(database.db);
  // Invoice requests: stamped by the sandbox PAC, or Finkok with PAC=finkok. Either keeps what it stamped in
  // the files store, so a restarted server can still cancel an invoice a refacturación replaces.
  const pac = pacFromEnv(database.db, files);
  const invoicing = await startInvoiceWorker(boss, { db: database.db, files, mailer, pac, clock: () => new Date(), merchants: merchantSide });
  // Paid plans renew daily; the charge goes through the same payment provider as checkout.
  await startRenewalWorker(boss, { db: database.db, mailer, appUrl: env.app.publicUrl });
  // The daily SAT sync: the simulated SAT portal unless SAT_PORTAL=descarga-masiva.
  const portal = portalFromEnv(database.db, () => new Date(), demoMerchants);
  await startSatSyncWorker(boss, { db: database.db, files, mailer, portal, publicUrl: env.app.publicUrl, processUploads });
  const app = createApp({ db: database.db, mailer, config: env.app, listen: database.listen, bus: database.bus, limits: database.kind === 'pg' ? dbLimits(database.db) : undefined, files, imports, invoicing });
  // 64 KB request heads: an archive link names up to 500 tickets in its query (receipt-share.ts).
  // The demo listens on 127.0.0.1 unless HOST says otherwise (readEnv); production on every interface.
  const server = serve({ fetch: app.fetch, port: env.port, hostname: env.host, serverOptions: { maxHeaderSize: 64 * 1024 } }, () => {
    if (index > 1) return; // the first process speaks for all
    const base = env.app.publicUrl;
    console.log(`Cuentas Claras en ${base}`);
    console.log(`Base de datos: ${database.kind === 'pg' ? 'PostgreSQL (DATABASE_URL)' : `PGlite en ${env.dataDir}`}`);
    console.log(`Entra con usuario ${DEMO_USER.username} / contraseña ${DEMO_USER.password}`);
    if (env.app.devTools) {
      // The dev tools answer this machine only, whatever HOST is.
      const local = `http://localhost:${env.port}`;
      console.log(`Correos de desarrollo: ${local}/dev/mailbox`);
      console.log(`Tickets de comercios de prueba: ${local}/dev/merchant-tickets`);
      console.log(`Portal del SAT simulado: ${local}/dev/sat-portal`);
    } else if (!env.publicUrlSet) {
      console.log(`Aviso: PUBLIC_URL no está definido; los enlaces de los correos apuntan a ${base}`);
    }
    console.log(`API: ${base}/api/docs`);
  });

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    server.close();
    await boss.stop({ graceful: true, wait: true }).catch(() => undefined);
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((err: unknown) => {
  console.error('No se pudo iniciar Cuentas Claras:', err);
  process.exit(1);
});
