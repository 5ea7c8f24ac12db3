// One account's SAT sync: for each day asked and each direction, submit the request to
// the portal (its id kept in sat_downloads), collect it, and hand the files to the import pipeline as
// uploads rows (processUploads, which dedupes by UUID). Durable and idempotent: a day+direction already
// imported is skipped, a submitted request is collected rather than asked again, and the uploads of a
// download have ids derived from it, so a retry after a crash finds its own rows instead of adding more.
import { createHash } from 'node:crypto';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { newId } from '../../domain/ids';
import { mexicoCityDate } from '../../domain/mexico-time';
import { MSG } from '../../domain/messages';
import { satSyncView } from '../../domain/sat-sync';
import type { Clock } from '../context';
import type { Db } from '../db/client';
import { clients, satConnections, satDownloads, uploads, users } from '../db/schema';
import type { FileStore } from '../files/file-store';
import { markRfcVerifiedOnce } from '../lib/rfc-verified';
import type { Mailer } from '../mail/mailer';
import { syncArrivedMail } from './mail';
import { SAT_DIRECTIONS, type SatFile, type SatPortal } from './port';
import { connectionOf, credentialsOf } from './store';

export interface SatSyncDeps {
  db: Db;
  files: FileStore;
  mailer: Mailer;
  clock: Clock;
  portal: SatPortal;
  /** Public origin for the e-mail's link. */
  publicUrl?: string;
  /** The import pipeline's run over uploads rows (imports/process.ts processUploads), handed in by the composition root. */
  processUploads: (deps: { db: Db; files: FileStore; clock: Clock }, userId: number, uploadIds: string[]) => Promise<void>;
}

export interface SatSyncJob {
  clientId: number;
  /** Mexico City days, YYYY-MM-DD. */
  days: string[];
}

export type SatSyncOutcome = { state: 'done'; imported: number } | { state: 'pending' } | { state: 'disconnected' };

/** Parallel writes to the files store. */
const PUT_CONCURRENCY = 8;

const pad = (n: number) => String(n).padStart(2, '0');

/** The Mexico City day `back` days before `now`'s (1 = yesterday), as YYYY-MM-DD. */
export function mexicoDayBefore(now: Date, back: number): string {
  const { year, month, day } = mexicoCityDate(now);
  const d = new Date(Date.UTC(year, month - 1, day - back));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** A download's n-th upload id: the same on every run (uuid-shaped, variant 8). */
function uploadId(downloadId: string, index: number): string {
  const h = createHash('sha256').update(`sat:${downloadId}:${index}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Files → uploads rows (once) → the import pipeline. Answers the new CFDI it made. */
async function importFiles(deps: SatSyncDeps, userId: number, clientId: number, downloadId: string, files: SatFile[]): Promise<{ ids: string[]; imported: number }> {
  const now = deps.clock();
  const rows = files.map((f, i) => {
    const id = uploadId(downloadId, i);
    return { id, userId, clientId, name: f.name.slice(0, 255), kind: f.kind, size: f.bytes.byteLength, fileKey: `uploads/${userId}/${id}.${f.kind}`, status: 'recibido', createdAt: now, updatedAt: now };
  });
  const ids = rows.map((r) => r.id);
  if (rows.length === 0) return { ids, imported: 0 };
  const known = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const found = await deps.db.select({ id: uploads.id }).from(uploads).where(inArray(uploads.id, ids.slice(i, i + 500)));
    for (const f of found) known.add(f.id);
  }
  const fresh = rows.filter((r) => !known.has(r.id));
  const bytesOf = new Map(rows.map((r, i) => [r.id, files[i]!.bytes]));
  let next = 0;
  const writer = async () => {
    while (next < fresh.length) {
      const r = fresh[next++]!;
      await deps.files.put(r.fileKey, bytesOf.get(r.id)!);
    }
  };
  await Promise.all(Array.from({ length: PUT_CONCURRENCY }, writer));
  for (let i = 0; i < fresh.length; i += 500) await deps.db.insert(uploads).values(fresh.slice(i, i + 500)).onConflictDoNothing();
  await deps.processUploads({ db: deps.db, files: deps.files, clock: deps.clock }, userId, ids);
  let imported = 0;
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    const [row] = await deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(uploads)
      .where(and(or(inArray(uploads.id, part), inArray(uploads.parentId, part)), eq(uploads.status, 'importado'), sql`${uploads.kind} <> 'zip'`));
    imported += row?.n ?? 0;
  }
  return { ids, imported };
}

/** Runs (or continues) one account's sync. Throws when the portal fails: the caller records and retries. */
export async function runSatSync(deps: SatSyncDeps, job: SatSyncJob): Promise<SatSyncOutcome> {
  const { db } = deps;
  const [client] = await db.select({ id: clients.id, rfc: clients.rfc, userId: clients.userId }).from(clients).where(eq(clients.id, job.clientId));
  const conn = client ? await connectionOf(db, client.id) : null;
  if (!client || !conn) return { state: 'disconnected' };
  const cred = await credentialsOf(db, conn, client.rfc);
  await db.update(satConnections).set({ running: true, lastRunAt: deps.clock() }).where(eq(satConnections.clientId, client.id));

  let pending = false;
  let imported = 0;
  for (const day of job.days) {
    for (const direction of SAT_DIRECTIONS) {
      await db
        .insert(satDownloads)
        .values({ id: newId(), clientId: client.id, day, direction, state: 'pending', createdAt: deps.clock(), updatedAt: deps.clock() })
        .onConflictDoNothing();
      const [dl] = await db
        .select()
        .from(satDownloads)
        .where(and(eq(satDownloads.clientId, client.id), eq(satDownloads.day, day), eq(satDownloads.direction, direction)));
      if (!dl || dl.state === 'imported') continue;
      let requestId = dl.requestId;
      if (!requestId) {
        requestId = await deps.portal.submit(cred, day, direction);
        // SAT took the request with these credentials: a SAT connection for this RFC, which proves it.
        await markRfcVerifiedOnce(db, client.id, client.rfc, 'sat', deps.clock());
        await db.update(satDownloads).set({ requestId, state: 'submitted', updatedAt: deps.clock() }).where(eq(satDownloads.id, dl.id));
      }
      const got = await deps.portal.collect(cred, requestId);
      if (got.state === 'pending') {
        pending = true;
        continue;
      }
      const done = await importFiles(deps, client.userId, client.id, dl.id, got.files);
      await db.update(satDownloads).set({ state: 'imported', uploadIds: done.ids, imported: done.imported, updatedAt: deps.clock() }).where(eq(satDownloads.id, dl.id));
      imported += done.imported;
    }
  }
  if (pending) return { state: 'pending' };

  const now = deps.clock();
  await db.transaction(async (tx) => {
    await tx.update(satConnections).set({ running: false, lastOkAt: now, lastError: null, lastImported: imported, updatedAt: now }).where(eq(satConnections.clientId, client.id));
    await tx.update(clients).set({ synchronizedAt: now }).where(eq(clients.id, client.id));
  });
  if (imported > 0) {
    const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, client.userId));
    const link = deps.publicUrl ? `${deps.publicUrl.replace(/\/$/, '')}/#/` : null;
    if (user) await deps.mailer.send(syncArrivedMail(user.email, client.rfc, imported, link)).catch((err: unknown) => console.error('[sat-sync] sin correo:', (err as Error).message));
  }
  return { state: 'done', imported };
}

/** A failed attempt, as the sync page shows it (the job is retried by pg-boss). */
export async function recordSyncFailure(db: Db, clientId: number, now: Date): Promise<void> {
  await db.update(satConnections).set({ running: false, lastError: MSG.satSyncFailed, lastRunAt: now, updatedAt: now }).where(eq(satConnections.clientId, clientId));
}

/** The accounts the daily job syncs: connected personas físicas whose plan still has SincronizacionSAT. */
export async function connectedAccounts(db: Db): Promise<number[]> {
  const rows = await db
    .select({ id: satConnections.clientId, rfc: clients.rfc, plan_id: clients.planId, subscription_id: clients.subscriptionId })
    .from(satConnections)
    .innerJoin(clients, eq(clients.id, satConnections.clientId));
  return rows.filter((r) => satSyncView(r) === 'page').map((r) => r.id);
}
