// temporary profiling script (H1) — deleted before report
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inArray, eq, and } from 'drizzle-orm';
import { createApp } from '../../src/server/app';
import { clients, uploads } from '../../src/server/db/schema';
import { diskFileStore } from '../../src/server/files/file-store';
import { startImportWorker } from '../../src/server/imports/queue';
import { startBoss } from '../../src/server/jobs/boss';
import { devMailboxMailer } from '../../src/server/mail/mailer';
import { createHarness, freshIp } from '../server/helpers/harness';
import { freshCfdi } from './import';

const driver = (process.argv[2] ?? 'pglite') as 'pg' | 'pglite';
const N = Number(process.argv[3] ?? 1000);
const h = await createHarness(driver);
const files = diskFileStore(await mkdtemp(join(tmpdir(), 'h1-prof-')));
const boss = await startBoss(h.database, { supervise: false });
const imports = await startImportWorker(boss, { db: h.database.db, files, clock: () => new Date() });
const app = createApp({ db: h.database.db, files, mailer: devMailboxMailer(h.database.db), imports, listen: h.database.listen, config: { trustProxy: true } });
const u = await h.signUp('prof');
await h.database.db.insert(clients).values({ userId: u.userId, rfc: 'EKU9003173C9', name: 'x' });
const all = freshCfdi(N);
const t0 = performance.now();
let routeMs = 0;
const ids: string[] = [];
for (let i = 0; i < all.length; i += 100) {
  const form = new FormData();
  for (const f of all.slice(i, i + 100)) form.append('file', new Blob([new Uint8Array(f.bytes)]), f.name);
  const resp = new Response(form);
  const type = resp.headers.get('content-type')!;
  const body = await resp.arrayBuffer();
  const r0 = performance.now();
  const res = await app.request(`/api/v3/users/${u.userId}/files`, { method: 'POST', headers: { 'x-access-token': u.token, 'x-forwarded-for': freshIp(), 'content-type': type }, body });
  routeMs += performance.now() - r0;
  const j = (await res.json()) as any;
  if (res.status !== 200) throw new Error(JSON.stringify(j));
  for (const f of j.response.files) ids.push(f.id);
}
const tSent = performance.now();
for (;;) {
  const rows = await h.database.db.select({ id: uploads.id }).from(uploads).where(and(eq(uploads.userId, u.userId), inArray(uploads.status, ['importado', 'duplicado', 'rechazado'])));
  if (rows.length >= N) break;
  await new Promise((r) => setTimeout(r, 20));
}
const t1 = performance.now();
const st = await h.database.db.select({ s: uploads.status }).from(uploads).where(eq(uploads.userId, u.userId));
const counts: Record<string, number> = {};
for (const r of st) counts[r.s] = (counts[r.s] ?? 0) + 1;
console.log(JSON.stringify({ driver, N, routeMs: Math.round(routeMs), sentMs: Math.round(tSent - t0), totalMs: Math.round(t1 - t0), perS: Math.round(N / ((t1 - t0) / 1000)), counts, peakMb: Math.round(process.memoryUsage().rss / 1e6) }));
await boss.stop({ graceful: false, wait: true });
await h.close();
process.exit(0);
