// The daily SAT sync as durable pg-boss jobs: a cron job early in the Mexico City morning enqueues one
// job per connected account for the previous day; each job runs sync.ts. A portal that has not finished
// (Descarga Masiva's verify still in progress) sends the job again for later (startAfter); a portal that
// fails records the error for the sync page and throws, so pg-boss retries with backoff.
import { eq } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import type { Clock } from '../context';
import type { Db } from '../db/client';
import { satConnections } from '../db/schema';
import type { FileStore } from '../files/file-store';
import type { Mailer } from '../mail/mailer';
import type { SatPortal } from './port';
import { provideSatSync, type SatSyncQueue } from './runtime';
import { connectedAccounts, mexicoDayBefore, recordSyncFailure, runSatSync, type SatSyncDeps, type SatSyncJob } from './sync';
import { errorSummary } from '../lib/error-summary';

export const SAT_SYNC_QUEUE = 'sat-sync';
export const SAT_SYNC_DAILY_QUEUE = 'sat-sync-daily';
/** 11:30 UTC = 05:30 in Mexico City: the previous day is complete at SAT by then. */
export const SAT_SYNC_CRON = '30 11 * * *';
/** A request SAT has not finished is looked at again this much later. */
export const SAT_PENDING_RETRY_SECONDS = 5 * 60;
/** Retries of a failed attempt: 10 min, 20, 40, 80, 160 (pg-boss backoff). */
export const SAT_SYNC_RETRY = { retryLimit: 5, retryDelay: 600, retryBackoff: true } as const;

export interface SatSyncWorkerDeps {
  db: Db;
  files: FileStore;
  mailer: Mailer;
  clock?: Clock;
  /** Where the files come from (main.ts: the one the environment selects). */
  portal: SatPortal;
  publicUrl?: string;
  /** The import pipeline (imports/process.ts processUploads), handed in by main.ts. */
  processUploads: SatSyncDeps['processUploads'];
}

/** One job of the queue (exported for tests, which run it without pg-boss's timing). */
export async function handleSatSyncJob(deps: SatSyncDeps, data: SatSyncJob, later: (data: SatSyncJob) => Promise<void>): Promise<void> {
  try {
    const outcome = await runSatSync(deps, data);
    if (outcome.state === 'pending') await later(data);
  } catch (err) {
    await recordSyncFailure(deps.db, data.clientId, deps.clock());
    console.error(`[sat-sync] cuenta ${data.clientId}:`, errorSummary(err));
    throw err;
  }
}

export async function startSatSyncWorker(boss: PgBoss, deps: SatSyncWorkerDeps, opts: { pollingIntervalSeconds?: number } = {}): Promise<SatSyncQueue> {
  const clock = deps.clock ?? (() => new Date());
  const { portal } = deps;
  const run: SatSyncDeps = { db: deps.db, files: deps.files, mailer: deps.mailer, clock, portal, publicUrl: deps.publicUrl, processUploads: deps.processUploads };
  await boss.createQueue(SAT_SYNC_QUEUE, { name: SAT_SYNC_QUEUE, ...SAT_SYNC_RETRY });
  await boss.createQueue(SAT_SYNC_DAILY_QUEUE, { name: SAT_SYNC_DAILY_QUEUE, policy: 'singleton', retryLimit: 3, retryDelay: 300, retryBackoff: true });

  const queue: SatSyncQueue = {
    async enqueue(job) {
      await deps.db.update(satConnections).set({ running: true }).where(eq(satConnections.clientId, job.clientId));
      return boss.send(SAT_SYNC_QUEUE, job, { ...SAT_SYNC_RETRY, singletonKey: `${job.clientId}:${job.days.join(',')}` });
    },
  };
  const later = async (job: SatSyncJob) => {
    await boss.send(SAT_SYNC_QUEUE, job, { ...SAT_SYNC_RETRY, startAfter: SAT_PENDING_RETRY_SECONDS });
  };
  await boss.work<SatSyncJob>(SAT_SYNC_QUEUE, { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2 }, async (jobs) => {
    for (const j of jobs) await handleSatSyncJob(run, j.data, later);
  });
  await boss.work(SAT_SYNC_DAILY_QUEUE, async () => {
    const day = mexicoDayBefore(clock(), 1);
    for (const clientId of await connectedAccounts(deps.db)) await queue.enqueue({ clientId, days: [day] });
  });
  await boss.schedule(SAT_SYNC_DAILY_QUEUE, SAT_SYNC_CRON, undefined, { tz: 'UTC' });
  provideSatSync(deps.db, { portal, queue });
  return queue;
}
