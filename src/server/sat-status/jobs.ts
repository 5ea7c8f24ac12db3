// The SAT status check of stored CFDI: a pg-boss job that asks SAT's status service
// about receipts without a status, or checked more than 30 days ago, 50 at a time, one call a second,
// and writes receipts.sat_status / sat_checked_at (the time of the last attempt). New imports also ask
// for their receipts a few seconds after they commit (checkSoon), in jobs of the same queue.
//
// Decisions:
// - It only runs when a status service is configured (SAT_ESTADO_URL, or SAT_ESTADO=on for SAT's own):
//   a dev machine or a test never calls SAT, and the demo's sandbox CFDI would only be 'No encontrado'.
// - 'Cancelado' is final (SAT never revives a cancelled CFDI), so it is not asked again, and the CFDI
//   leaves the books: its live tickets in every account go to 0.00 (cfdi/cancellation.ts).
// - SAT failing (HTTP error, timeout, junk) stops the batch and fails the job: pg-boss retries it later
//   with backoff, and we do not keep knocking on a service that is down. The receipt being asked is
//   stamped as attempted (status kept), so one CFDI that always makes SAT fail cannot block the queue's
//   head: it goes to the back and is tried again a day later.
// - Likewise a receipt whose stored XML gives no expression is stamped without a status: tried daily,
//   never a batch slot every run.
import type PgBoss from 'pg-boss';
import { and, asc, eq, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { readCfdi } from '../cfdi/read';
import { verificationUrl } from '../cfdi/verification-url';
import type { Db } from '../db/client';
import { receipts } from '../db/schema';
import type { FileStore } from '../files/file-store';
import { markCfdiCancelled } from '../cfdi/cancellation';
import { satEstadoCfdi, type CfdiStatus, type CfdiStatusPort } from './estado-cfdi';

export const SAT_STATUS_QUEUE = 'sat-estado-cfdi';
export const SAT_STATUS_BATCH = 50;
export const SAT_STATUS_MAX_AGE_DAYS = 30;
/** A receipt without a status whose last attempt failed waits this long before the next one. */
export const SAT_STATUS_RETRY_DAYS = 1;
/** Pause between two calls to SAT: its throttling limits are unknown (cfdi-facts §7), so be polite. */
export const SAT_STATUS_PAUSE_MS = 1_000;
/** Every hour at :41 — up to 1,200 CFDI a day. */
export const SAT_STATUS_CRON = '41 * * * *';

export interface SatStatusRun {
  /** Receipts whose sat_status was written. */
  checked: number;
  /** Receipts skipped because their XML gave no expression (stamped as attempted, no status). */
  unreadable: number;
}

export interface SatStatusOptions {
  /** Only these receipts (a check asked right after their import), those still without a status. */
  receiptIds?: readonly string[];
  now?: Date;
  batch?: number;
  pauseMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

/** The expression SAT's service takes, from a stored CFDI; null when the XML is gone or unreadable. */
async function expressionOf(files: FileStore, key: string): Promise<string | null> {
  const xml = await files.get(key);
  if (!xml) return null;
  const read = readCfdi(xml);
  return read.ok ? verificationUrl(read.cfdi) : null;
}

/** One batch: the receipts due, oldest attempt first (never-attempted before all). Throws when SAT fails. */
export async function checkSatStatuses(db: Db, files: FileStore, port: CfdiStatusPort, opts: SatStatusOptions = {}): Promise<SatStatusRun> {
  const now = opts.now ?? new Date();
  const stale = new Date(now.getTime() - SAT_STATUS_MAX_AGE_DAYS * 86_400_000);
  const retry = new Date(now.getTime() - SAT_STATUS_RETRY_DAYS * 86_400_000);
  if (opts.receiptIds?.length === 0) return { checked: 0, unreadable: 0 };
  const sleep = opts.sleep ?? wait;
  const pauseMs = opts.pauseMs ?? SAT_STATUS_PAUSE_MS;
  const due = await db
    .select({ id: receipts.id, uuid: receipts.uuid, xmlKey: receipts.xmlKey })
    .from(receipts)
    .where(
      opts.receiptIds
        ? and(inArray(receipts.id, [...opts.receiptIds]), isNull(receipts.satStatus))
        : or(
            and(isNull(receipts.satStatus), or(isNull(receipts.satCheckedAt), lt(receipts.satCheckedAt, retry))),
            and(ne(receipts.satStatus, 'Cancelado'), lt(receipts.satCheckedAt, stale)),
          ),
    )
    .orderBy(sql`${receipts.satCheckedAt} ASC NULLS FIRST`, asc(receipts.id))
    .limit(opts.batch ?? SAT_STATUS_BATCH);

  const run: SatStatusRun = { checked: 0, unreadable: 0 };
  // The issuer's and the receiver's copies of one CFDI share an expression: ask SAT once.
  const answers = new Map<string, CfdiStatus>();
  let called = false;
  for (const r of due) {
    const expression = await expressionOf(files, r.xmlKey);
    if (expression === null) {
      await db.update(receipts).set({ satCheckedAt: now }).where(eq(receipts.id, r.id));
      run.unreadable++;
      continue;
    }
    let status = answers.get(expression);
    if (!status) {
      if (called) await sleep(pauseMs);
      called = true;
      try {
        status = await port.check(expression);
      } catch (err) {
        await db.update(receipts).set({ satCheckedAt: now }).where(eq(receipts.id, r.id));
        throw err;
      }
      answers.set(expression, status);
    }
    await db.update(receipts).set({ satStatus: status.state, satCheckedAt: now }).where(eq(receipts.id, r.id));
    // A cancelled CFDI leaves the books: its tickets (in every account that holds it) go to 0.00.
    if (status.state === 'Cancelado') await markCfdiCancelled(db, { uuid: r.uuid, cancelStatus: null, satCancelled: true }, now);
    run.checked++;
  }
  return run;
}

/** A job of the status queue: no data = the hourly sweep; receiptIds = those just imported. */
export interface SatStatusJob {
  receiptIds?: string[];
}

/** How the import asks for its new receipts' status soon, instead of waiting for the hourly sweep. */
export interface SatStatusTrigger {
  checkSoon(receiptIds: readonly string[]): Promise<void>;
}

/** Seconds a check asked by an import waits: the import's next batches then go in the same jobs' wake. */
export const SAT_STATUS_SOON_SECONDS = 5;

/**
 * Registers the hourly check when a status service is configured (main.ts) and answers the trigger
 * imports use; otherwise makes sure none is scheduled and answers null.
 * Singleton queue: a slow run (hourly or after an import) is never overlapped by another.
 */
export async function registerSatStatus(boss: PgBoss, db: Db, files: FileStore, satEstadoUrl: string | undefined): Promise<SatStatusTrigger | null> {
  if (!satEstadoUrl) {
    // Switched off after having been on: stop the schedule a previous start left in the database.
    await boss.unschedule(SAT_STATUS_QUEUE).catch(() => undefined);
    return null;
  }
  const port = satEstadoCfdi({ url: satEstadoUrl });
  await boss.createQueue(SAT_STATUS_QUEUE, { name: SAT_STATUS_QUEUE, policy: 'singleton', retryLimit: 3, retryDelay: 300, retryBackoff: true });
  await boss.work<SatStatusJob>(SAT_STATUS_QUEUE, async (jobs) => {
    for (const job of jobs) {
      const receiptIds = job.data?.receiptIds;
      const run = await checkSatStatuses(db, files, port, receiptIds ? { receiptIds, batch: receiptIds.length } : {});
      if (run.checked || run.unreadable) console.log(`[SAT] estado consultado de ${run.checked} CFDI (${run.unreadable} ilegibles)`);
    }
  });
  await boss.schedule(SAT_STATUS_QUEUE, SAT_STATUS_CRON);
  return {
    async checkSoon(receiptIds) {
      // Jobs of a batch's size: each one a short run, paced like the sweep.
      for (let i = 0; i < receiptIds.length; i += SAT_STATUS_BATCH) {
        await boss.send(SAT_STATUS_QUEUE, { receiptIds: receiptIds.slice(i, i + SAT_STATUS_BATCH) } satisfies SatStatusJob, { startAfter: SAT_STATUS_SOON_SECONDS });
      }
    },
  };
}
