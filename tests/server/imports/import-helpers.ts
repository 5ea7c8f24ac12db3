// Shared by the import tests: the harness's database with a pg-boss import worker and an app that
// enqueues into it (per suite: importEnvPerSuite), users with accounts for given RFCs, multipart uploads
// and waiting for the job.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../../../src/server/app';
import { clients, uploads } from '../../../src/server/db/schema';
import { IMPORT_QUEUE, startImportWorker } from '../../../src/server/imports/queue';
import { startBoss } from '../../../src/server/jobs/boss';
import { devMailboxMailer } from '../../../src/server/mail/mailer';
import { createHarness, freshIp, type DriverName, type Harness } from '../helpers/harness';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/cfdi', import.meta.url));
export const fixture = (name: string) => new Uint8Array(readFileSync(resolve(FIXTURES, name)));
export const utf8 = (s: string) => new TextEncoder().encode(s);

export interface ImportEnv {
  h: Harness;
  boss: PgBoss;
  app: ReturnType<typeof createApp>;
  close(): Promise<void>;
}

export async function importEnv(driver: DriverName): Promise<ImportEnv> {
  const h = await createHarness(driver);
  const boss = await startBoss(h.database, { supervise: false });
  const imports = await startImportWorker(boss, { db: h.database.db, files: h.files, clock: () => new Date() });
  const app = createApp({ db: h.database.db, files: h.files, mailer: devMailboxMailer(h.database.db), imports, listen: h.database.listen, config: { trustProxy: true } });
  return {
    h,
    boss,
    app,
    close: async () => {
      await boss.stop({ graceful: false, wait: true });
      await h.close();
    },
  };
}

export interface SuiteOptions {
  /** The suite runs the import jobs by hand (processUploads): no worker takes them. */
  manualJobs?: boolean;
  /** For the whole setup, `set` included (default 300 s: the first import env of a process is slow on a busy machine). */
  timeoutMs?: number;
}

/**
 * Gives the suite an ImportEnv on this driver, made before its tests and closed after them. `set` gets it
 * first thing and may go on with the suite's own setup (users, accounts, rows), which then runs inside the
 * same hook: the one setup every import test file had copied.
 */
export function importEnvPerSuite(driver: DriverName, set: (env: ImportEnv) => unknown, opts: SuiteOptions = {}): void {
  let env: ImportEnv | undefined;
  beforeAll(async () => {
    env = await importEnv(driver);
    if (opts.manualJobs) await env.boss.offWork(IMPORT_QUEUE);
    await set(env);
  }, opts.timeoutMs ?? 300_000);
  afterAll(async () => {
    await env?.close();
  });
}

export interface User {
  token: string;
  userId: number;
  clientIds: Map<string, number>;
}

/** A signed-up user with one account per RFC (written straight to the table: fixtures use test RFCs). */
export async function userWith(env: ImportEnv, rfcs: string[]): Promise<User> {
  const u = await env.h.signUp('imp');
  const clientIds = new Map<string, number>();
  for (const rfc of rfcs) {
    const [row] = await env.h.database.db.insert(clients).values({ userId: u.userId, rfc, name: `Cuenta ${rfc}` }).returning({ id: clients.id });
    clientIds.set(rfc, row!.id);
  }
  return { token: u.token, userId: u.userId, clientIds };
}

export interface UploadFile {
  name: string;
  bytes: Uint8Array;
}

export async function upload(env: ImportEnv, user: User, files: UploadFile[], opts: { rfc?: string; key?: string; userId?: number } = {}) {
  const form = new FormData();
  for (const f of files) form.append('file', new Blob([new Uint8Array(f.bytes)]), f.name);
  if (opts.rfc) form.append('rfc', opts.rfc);
  const headers: Record<string, string> = { 'x-access-token': user.token, 'x-forwarded-for': freshIp() };
  if (opts.key) headers['idempotency-key'] = opts.key;
  const res = await env.app.request(`/api/v3/users/${opts.userId ?? user.userId}/files`, { method: 'POST', headers, body: form });
  const text = await res.text();
  let json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- envelopes
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

export type UploadRow = typeof uploads.$inferSelect;

/** Waits until these uploads (and their zip entries) are all finished; answers every row. */
export async function settled(env: ImportEnv, ids: string[], timeoutMs = 30_000): Promise<UploadRow[]> {
  const db = env.h.database.db;
  const until = Date.now() + timeoutMs;
  for (;;) {
    const top = await db.select().from(uploads).where(inArray(uploads.id, ids));
    const kids = ids.length ? await db.select().from(uploads).where(inArray(uploads.parentId, ids)) : [];
    const grandKids = kids.length ? await db.select().from(uploads).where(inArray(uploads.parentId, kids.map((k) => k.id))) : [];
    const all = [...top, ...kids, ...grandKids];
    if (top.length === ids.length && all.every((r) => ['importado', 'duplicado', 'rechazado'].includes(r.status))) return all;
    if (Date.now() > until) throw new Error(`sin terminar: ${JSON.stringify(all.filter((r) => !['importado', 'duplicado', 'rechazado'].includes(r.status)).map((r) => [r.name, r.status]))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function uploadRows(env: ImportEnv, ids: string[]) {
  return env.h.database.db.select().from(uploads).where(inArray(uploads.id, ids));
}

export async function childrenOf(env: ImportEnv, parentId: string) {
  return env.h.database.db.select().from(uploads).where(eq(uploads.parentId, parentId));
}
