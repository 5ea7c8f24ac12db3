// pg-boss 10 on the application's database: its own pool on PostgreSQL, and PGlite through the
// `db` option (DESIGN §2). Also schedules the hourly clean-up of expired rows.
import PgBoss from 'pg-boss';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { IDEMPOTENCY_RETENTION_DAYS } from '../http/idempotency';

export const CLEANUP_QUEUE = 'maintenance-cleanup';

export interface BossOptions {
  /** Seconds between polls of a worker; PGlite is in-process, so poll briskly. */
  pollingIntervalSeconds?: number;
  /** Run maintenance and cron (off in tests). */
  supervise?: boolean;
}

export async function startBoss(database: Database, opts: BossOptions = {}): Promise<PgBoss> {
  const common = {
    schema: 'pgboss',
    supervise: opts.supervise ?? true,
    schedule: opts.supervise ?? true,
  };
  const boss =
    database.kind === 'pg'
      ? new PgBoss({ ...common, connectionString: database.connectionString, max: 4 })
      : new PgBoss({ ...common, db: database.sql as PgBoss.Db });
  boss.on('error', (err) => console.error('[jobs]', err.message));
  await boss.start();
  return boss;
}

/** Deletes what no longer matters: idempotency keys past retention, old login failures, spent captchas, old resets. */
export async function cleanupExpired(database: Database, now = new Date()): Promise<void> {
  const day = 86_400_000;
  const keysBefore = new Date(now.getTime() - (IDEMPOTENCY_RETENTION_DAYS + 1) * day).toISOString();
  const dayBefore = new Date(now.getTime() - day).toISOString();
  const nowIso = now.toISOString();
  await database.db.execute(sql`DELETE FROM idempotency_keys WHERE created_at < ${keysBefore}`);
  await database.db.execute(sql`DELETE FROM login_attempts WHERE at < ${dayBefore}`);
  await database.db.execute(sql`DELETE FROM captcha_used WHERE expires_at < ${nowIso}`);
  await database.db.execute(sql`DELETE FROM password_resets WHERE expires_at < ${dayBefore}`);
  // OAuth request tokens live minutes; a day later nobody can use or be told about them.
  await database.db.execute(sql`DELETE FROM oauth_requests WHERE expires_at < ${dayBefore}`);
}

export async function registerMaintenance(boss: PgBoss, database: Database): Promise<void> {
  await boss.createQueue(CLEANUP_QUEUE);
  await boss.work(CLEANUP_QUEUE, async () => cleanupExpired(database));
  await boss.schedule(CLEANUP_QUEUE, '17 * * * *');
}
