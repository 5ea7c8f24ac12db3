// The daily SAT sync job with an injected clock: it imports the previous day's CFDI (issued and
// received) through the import pipeline and e-mails the user; a second run imports nothing new, even
// when SAT is asked again (the pipeline dedupes by UUID); a failing portal leaves the error for the
// sync page and the job throws (pg-boss retries it), then a later attempt succeeds; a portal that is not
// ready yet sends the job again for later. Also through pg-boss itself, with the daily schedule.
import { and, eq, sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { clients, mailMessages, satConnections, satDownloads, tickets } from '../../../src/server/db/schema';
import { startBoss } from '../../../src/server/jobs/boss';
import { devMailboxMailer } from '../../../src/server/mail/mailer';
import { handleSatSyncJob, SAT_SYNC_DAILY_QUEUE, SAT_SYNC_QUEUE, SAT_SYNC_RETRY, startSatSyncWorker } from '../../../src/server/sat-sync/jobs';
import type { SatPortal } from '../../../src/server/sat-sync/port';
import { provideSatSync } from '../../../src/server/sat-sync/runtime';
import { DEMO_SAT_CIECS, SimulatedSatPortal, seedSatPortal } from '../../../src/server/sat-sync/simulated-portal';
import { mexicoDayBefore, type SatSyncDeps, type SatSyncJob } from '../../../src/server/sat-sync/sync';
import { processUploads } from '../../../src/server/imports/process';
import { demoMerchants } from '../../../src/server/wiring';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';
import { PERSONA, personWithPlan } from './helpers';

const NOW = new Date('2026-11-20T15:00:00Z');

describe.each(DRIVERS)('SAT sync job (%s)', (driver) => {
  let h: Harness;
  let boss: PgBoss | undefined;
  let failing = false;
  let portal: SimulatedSatPortal;
  let deps: SatSyncDeps;
  beforeAll(async () => {
    h = await createHarness(driver);
    await seedSatPortal(h.database.db);
    portal = new SimulatedSatPortal(h.database.db, () => NOW, demoMerchants, { failing: () => failing });
    deps = { db: h.database.db, files: h.files, mailer: devMailboxMailer(h.database.db), clock: () => NOW, portal, processUploads };
    provideSatSync(h.database.db, { portal, queue: { enqueue: async () => null } });
  });
  afterAll(async () => {
    // Graceful: the daily schedule's job for another account may still be importing; it finishes (and
    // records its outcome) before the database closes under it.
    await boss?.stop({ graceful: true, wait: true, timeout: 60_000 });
    await h?.close();
  });

  const connected = async () => {
    const u = await personWithPlan(h);
    const saved = await h.call('PUT', `/api/v3/users/${u.userId}/branches/${PERSONA}.json`, { token: u.token, body: { sat_password: DEMO_SAT_CIECS[PERSONA] } });
    expect(saved.status).toBe(200);
    return u;
  };
  const ticketCount = async (clientId: number) =>
    (await h.database.db.select({ n: sql<number>`count(*)::int` }).from(tickets).where(eq(tickets.clientId, clientId)))[0]!.n;
  const mailsTo = async (email: string) => (await h.database.db.select().from(mailMessages).where(eq(mailMessages.to, email))).length;
  const status = async (u: { userId: number; token: string }) => (await h.call('GET', `/api/v3/users/${u.userId}/branches/${PERSONA}/sync`, { token: u.token })).json.response;
  const dayCount = async (day: string) => {
    const files = await portal.dayFiles(PERSONA, day);
    return files.issued.length + files.received.length;
  };
  const noLater = async () => {
    throw new Error('not expected to be sent again');
  };

  it("imports yesterday's issued and received CFDI, tells the user, and imports nothing twice", async () => {
    const u = await connected();
    const yesterday = mexicoDayBefore(NOW, 1);
    const expected = await dayCount(yesterday);
    const files = await portal.dayFiles(PERSONA, yesterday);
    expect(files.issued.length).toBeGreaterThan(0);
    expect(files.received.length).toBeGreaterThan(0);

    await handleSatSyncJob(deps, { clientId: u.clientId, days: [yesterday] }, noLater);
    expect(await ticketCount(u.clientId)).toBe(expected);
    const s = await status(u);
    expect(s).toMatchObject({ method: 'ciec', last_imported: expected, last_error: null, running: false, synchronized_at: NOW.toISOString() });
    const [client] = await h.database.db.select().from(clients).where(eq(clients.id, u.clientId));
    expect(client!.synchronizedAt?.toISOString()).toBe(NOW.toISOString());
    const [mail] = await h.database.db.select().from(mailMessages).where(eq(mailMessages.to, u.email));
    expect(mail!.subject).toContain(String(expected));
    expect(mail!.text).toContain(PERSONA);
    expect(mail!.text).not.toContain(DEMO_SAT_CIECS[PERSONA]!);

    // The same day again: already imported, nothing asked, nothing new, no second e-mail.
    await handleSatSyncJob(deps, { clientId: u.clientId, days: [yesterday] }, noLater);
    expect(await ticketCount(u.clientId)).toBe(expected);
    expect((await status(u)).last_imported).toBe(0);
    expect(await mailsTo(u.email)).toBe(1);

    // Even if SAT is asked again (records lost), the pipeline's UUID dedupe keeps every CFDI once.
    await h.database.db.delete(satDownloads).where(eq(satDownloads.clientId, u.clientId));
    await handleSatSyncJob(deps, { clientId: u.clientId, days: [yesterday] }, noLater);
    expect(await ticketCount(u.clientId)).toBe(expected);
    expect((await status(u)).last_imported).toBe(0);
    expect(await mailsTo(u.email)).toBe(1);

    // The next day has new CFDI of its own.
    const today = mexicoDayBefore(NOW, 0);
    await handleSatSyncJob(deps, { clientId: u.clientId, days: [today] }, noLater);
    expect(await ticketCount(u.clientId)).toBe(expected + (await dayCount(today)));
  });

  it('records a failing portal for the sync page and throws (for the retry), then succeeds', async () => {
    const u = await connected();
    const day = mexicoDayBefore(NOW, 2);
    failing = true;
    try {
      await expect(handleSatSyncJob(deps, { clientId: u.clientId, days: [day] }, noLater)).rejects.toThrow();
    } finally {
      failing = false;
    }
    expect(await status(u)).toMatchObject({ last_error: MSG.satSyncFailed, running: false, synchronized_at: null });
    expect(await ticketCount(u.clientId)).toBe(0);

    await handleSatSyncJob(deps, { clientId: u.clientId, days: [day] }, noLater);
    expect(await status(u)).toMatchObject({ last_error: null, last_imported: await dayCount(day) });
    expect(await ticketCount(u.clientId)).toBe(await dayCount(day));
  });

  it('comes back later for a request SAT has not finished', async () => {
    const u = await connected();
    const day = mexicoDayBefore(NOW, 3);
    let verifies = 0;
    const slow: SatPortal = {
      name: 'lento',
      methods: portal.methods,
      authenticate: (rfc, ciec) => portal.authenticate(rfc, ciec),
      submit: (cred, d, direction) => portal.submit(cred, d, direction),
      collect: async (cred, id) => (++verifies <= 2 ? { state: 'pending' } : portal.collect(cred, id)),
    };
    const sent: SatSyncJob[] = [];
    await handleSatSyncJob({ ...deps, portal: slow }, { clientId: u.clientId, days: [day] }, async (job) => void sent.push(job));
    expect(sent).toEqual([{ clientId: u.clientId, days: [day] }]);
    expect(await status(u)).toMatchObject({ running: true, synchronized_at: null });
    const submitted = await h.database.db.select().from(satDownloads).where(and(eq(satDownloads.clientId, u.clientId), eq(satDownloads.day, day)));
    expect(submitted.map((d) => d.state).sort()).toEqual(['submitted', 'submitted']);

    await handleSatSyncJob({ ...deps, portal: slow }, sent[0]!, noLater);
    expect(await status(u)).toMatchObject({ running: false, last_imported: await dayCount(day) });
  });

  it('runs from pg-boss: the queue imports, and the daily schedule enqueues every connected account', async () => {
    const u = await connected();
    const v = await connected();
    // A disconnected account is not synced.
    const w = await connected();
    await h.call('DELETE', `/api/v3/users/${w.userId}/branches/${PERSONA}.json`, { token: w.token });

    boss = await startBoss(h.database, { supervise: false });
    const queue = await startSatSyncWorker(boss, { db: h.database.db, files: h.files, mailer: devMailboxMailer(h.database.db), clock: () => NOW, portal, processUploads }, { pollingIntervalSeconds: 0.5 });
    expect((await boss.getSchedules()).map((s) => s.name)).toContain(SAT_SYNC_DAILY_QUEUE);

    // A failing portal: the job waits in pg-boss's retry state, with backoff, and the page shows the error.
    const day = mexicoDayBefore(NOW, 4);
    failing = true;
    const id = await queue.enqueue({ clientId: u.clientId, days: [day] });
    expect(id).toBeTruthy();
    try {
      await expect.poll(async () => (await boss!.getJobById(SAT_SYNC_QUEUE, id!))?.state, { timeout: 60_000, interval: 250 }).toBe('retry');
    } finally {
      failing = false;
    }
    const job = await boss.getJobById(SAT_SYNC_QUEUE, id!);
    expect(job).toMatchObject({ retryLimit: SAT_SYNC_RETRY.retryLimit, retryBackoff: true });
    // The next attempt waits (backoff), it does not spin.
    expect(new Date(job!.startAfter).getTime()).toBeGreaterThan(Date.now());
    expect((await status(u)).last_error).toBe(MSG.satSyncFailed);
    expect(await ticketCount(u.clientId)).toBe(0);

    await queue.enqueue({ clientId: u.clientId, days: [mexicoDayBefore(NOW, 5)] });
    await expect.poll(async () => (await status(u)).last_imported, { timeout: 60_000, interval: 250 }).toBe(await dayCount(mexicoDayBefore(NOW, 5)));
    expect((await status(u)).last_error).toBeNull();

    await boss.send(SAT_SYNC_DAILY_QUEUE, {});
    await expect.poll(async () => (await status(v)).synchronized_at, { timeout: 60_000, interval: 250 }).toBe(NOW.toISOString());
    expect(await ticketCount(v.clientId)).toBe(await dayCount(mexicoDayBefore(NOW, 1)));
    expect(await h.database.db.select().from(satConnections).where(eq(satConnections.clientId, w.clientId))).toHaveLength(0);
    expect(await ticketCount(w.clientId)).toBe(0);
  });
});
