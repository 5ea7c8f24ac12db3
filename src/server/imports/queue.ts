// The import as a durable pg-boss job: one job per upload request, on the app's own
// database, retried with backoff if the process dies or a batch fails. Re-running is harmless: the job
// only takes uploads not yet finished, and UUIDs deduplicate. After the last retry the files still
// unfinished are refused with the generic message rather than left 'procesando' forever, and its stored
// files are deleted rather than left on disk.
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { MSG } from '../../domain/messages';
import { readImportWorkers } from '../config';
import { queryRows } from '../db/client';
import { uploads } from '../db/schema';
import { errorSummary } from '../lib/error-summary';
import { uploadsChanged } from './changes';
import { processUploads, writeStatuses, type ImportDeps, type StatusChange } from './process';

export const IMPORT_QUEUE = 'cfdi-import';
const RETRY = { retryLimit: 4, retryDelay: 5, retryBackoff: true, expireInMinutes: 30 } as const;

export interface ImportJob {
  userId: number;
  uploadIds: string[];
}

/** How the upload route hands work over. */
export interface ImportQueue {
  enqueue(job: ImportJob): Promise<void>;
}

/**
 * After the last retry: the job's files still unfinished are refused with the generic message, and its
 * stored files and packs are deleted (nothing will read them again).
 */
export async function giveUp(deps: ImportDeps, job: ImportJob): Promise<void> {
  const mine = or(inArray(uploads.id, job.uploadIds), inArray(uploads.parentId, job.uploadIds));
  // The keys first: a final status clears the row's file key.
  const stored = await deps.db
    .selectDistinct({ key: uploads.fileKey })
    .from(uploads)
    .where(and(eq(uploads.userId, job.userId), inArray(uploads.id, job.uploadIds), isNotNull(uploads.fileKey)));
  const left = await deps.db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(mine, inArray(uploads.status, ['recibido', 'procesando'])));
  const failed = new Map<string, StatusChange>(left.map((r) => [r.id, { status: 'rechazado', reason: MSG.importFailed, ticketIds: [] }]));
  await writeStatuses(deps.db, failed, deps.clock());
  uploadsChanged(job.userId);
  await Promise.all(stored.map(({ key }) => deps.files.delete(key!).catch(() => undefined)));
}

/** Longer than a job's every try can last (5 runs of at most 30 min, with backoff between them). */
export const STALE_UPLOAD_MS = 6 * 3_600_000;
const SWEEP_QUEUE = 'cfdi-import-sweep';

/**
 * Uploads still unfinished long after their job's last try (the process died during it, so pg-boss
 * expired the job without calling us): given up on, as the last retry would, so no file spins forever.
 */
export async function sweepStaleUploads(deps: ImportDeps, now: Date = deps.clock()): Promise<number> {
  const stale = await deps.db
    .select({ id: uploads.id, userId: uploads.userId, parentId: uploads.parentId })
    .from(uploads)
    .where(and(inArray(uploads.status, ['recibido', 'procesando']), lt(uploads.updatedAt, new Date(now.getTime() - STALE_UPLOAD_MS))));
  const byUser = new Map<number, Set<string>>();
  for (const r of stale) {
    const ids = byUser.get(r.userId) ?? new Set<string>();
    ids.add(r.parentId ?? r.id);
    byUser.set(r.userId, ids);
  }
  for (const [userId, ids] of byUser) await giveUp(deps, { userId, uploadIds: [...ids] });
  return stale.length;
}

// Jobs left 'active' by a killed process (issue: pg-boss would only expire them after expireInMinutes,
// 30 min). pg-boss 10 records no owner for an active job, so the import worker stamps its own: while a
// job runs, its row's `output` (unused until pg-boss completes or fails it) holds this process's id and a
// heartbeat refreshed every BEAT_MS. A job is orphaned when
// - on PGlite: it is active when the worker starts (PGlite is one process, and it is this one starting);
// - on PostgreSQL (several processes): it started before this process did AND its owner's heartbeat is
//   older than STALE_MS, so its owner is gone (a live one beats every BEAT_MS). Checked at start and
//   every BEAT_MS after. Jobs without a stamp (run by an older version) are left to pg-boss's expiry.
// Orphans with tries left go back to 'retry' at once; those without are failed and given up on.

/** This process, as the owner stamped on the import jobs it runs. */
const OWNER = randomUUID();
export const BEAT_MS = 10_000;
export const STALE_MS = 3 * BEAT_MS;

interface OrphanRow {
  id: string;
  data: ImportJob;
  resumable: boolean;
}

/** Stamps (or re-stamps) this process as the owner of its running import jobs, with a fresh heartbeat. */
async function beat(db: ImportDeps['db'], jobIds?: string[]): Promise<void> {
  const which = jobIds ? sql`id = ANY(${`{${jobIds.join(',')}}`}::uuid[])` : sql`output->>'owner' = ${OWNER}`;
  await db.execute(sql`
    UPDATE pgboss.job SET output = jsonb_build_object('owner', ${OWNER}::text, 'beat', now())
    WHERE name = ${IMPORT_QUEUE} AND state = 'active' AND ${which}`);
}

/**
 * Puts the import jobs a dead process left 'active' back in the queue at once (or, out of tries, fails
 * them and refuses their unfinished files). `singleProcess`: the database has no other process (PGlite).
 */
export async function resumeOrphanedImports(deps: ImportDeps, opts: { bootedAt: Date; singleProcess: boolean }): Promise<number> {
  const orphan = opts.singleProcess
    ? sql`true`
    : sql`started_on < ${opts.bootedAt.toISOString()}::timestamptz AND output->>'owner' IS DISTINCT FROM ${OWNER}
          AND (output->>'beat')::timestamptz < now() - ${`${STALE_MS} milliseconds`}::interval`;
  const rows = await queryRows<OrphanRow>(
    deps.db,
    sql`
      UPDATE pgboss.job SET
        state = CASE WHEN retry_count < retry_limit THEN 'retry'::pgboss.job_state ELSE 'failed'::pgboss.job_state END,
        start_after = now(),
        completed_on = CASE WHEN retry_count < retry_limit THEN NULL ELSE now() END,
        output = jsonb_build_object('message', 'proceso terminado durante el trabajo')
      WHERE name = ${IMPORT_QUEUE} AND state = 'active' AND ${orphan}
      RETURNING id, data, retry_count < retry_limit AS resumable`,
  );
  for (const r of rows) if (!r.resumable) await giveUp(deps, r.data);
  if (rows.length > 0) console.error(`[import] ${rows.length} trabajos de importación de un proceso terminado: reanudados`);
  return rows.length;
}

async function isSingleProcess(db: ImportDeps['db']): Promise<boolean> {
  const [row] = await queryRows<{ v: string }>(db, sql`SELECT version() AS v`);
  return /PGlite/i.test(row?.v ?? '');
}

/** Creates the queue and its worker; answers the queue the app enqueues into. */
export async function startImportWorker(boss: PgBoss, deps: ImportDeps, opts: { pollingIntervalSeconds?: number; bootedAt?: Date } = {}): Promise<ImportQueue> {
  await boss.createQueue(IMPORT_QUEUE);
  const bootedAt = opts.bootedAt ?? new Date(Date.now() - process.uptime() * 1000);
  const singleProcess = await isSingleProcess(deps.db);
  await resumeOrphanedImports(deps, { bootedAt, singleProcess });
  const timer = setInterval(() => {
    void (async () => {
      await beat(deps.db);
      if (!singleProcess) await resumeOrphanedImports(deps, { bootedAt, singleProcess });
    })().catch((err: unknown) => console.error('[import] latido de trabajos:', errorSummary(err)));
  }, BEAT_MS);
  timer.unref();
  boss.once('stopped', () => clearInterval(timer));
  // The worker polls every 0.5 s; jobs sent by this process wake it at once (and it wakes itself after
  // each job, so a queue of jobs is drained back to back). Other processes' jobs wait for the poll.
  // IMPORT_WORKERS jobs at a time (default 1: two measured no faster on 2 cores, PGlite or PostgreSQL;
  // more processes are the way to scale).
  // Safe: receipts go in with ON CONFLICT DO NOTHING on (client, UUID), so two batches naming the same
  // CFDI give one import and one duplicate.
  const workerIds: string[] = [];
  const nudge = () => {
    for (const id of workerIds) boss.notifyWorker(id);
  };
  const handler = async (jobs: PgBoss.JobWithMetadata<ImportJob>[]) => {
    setImmediate(nudge);
    await beat(deps.db, jobs.map((j) => j.id));
    for (const job of jobs) {
      try {
        await processUploads(deps, job.data.userId, job.data.uploadIds);
      } catch (err) {
        if (job.retryCount < job.retryLimit) throw err;
        console.error('[import] sin más reintentos:', errorSummary(err));
        await giveUp(deps, job.data);
      }
    }
  };
  await boss.createQueue(SWEEP_QUEUE);
  await boss.work(SWEEP_QUEUE, async () => {
    const n = await sweepStaleUploads(deps);
    if (n > 0) console.error(`[import] ${n} archivos sin terminar tras su último intento: rechazados`);
  });
  await boss.schedule(SWEEP_QUEUE, '41 * * * *');
  const workers = readImportWorkers();
  for (let i = 0; i < workers; i++) {
    workerIds.push(await boss.work<ImportJob>(IMPORT_QUEUE, { includeMetadata: true, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 0.5 }, handler));
  }
  return {
    async enqueue(job) {
      await boss.send(IMPORT_QUEUE, job, RETRY);
      nudge();
    },
  };
}
