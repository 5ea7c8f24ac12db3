// The renewal benchmark: 10,000 subscriptions due at once, renewed by renewDueSubscriptions with the
// sandbox provider and the dev-mailbox mailer (receipts written to the database), on PGlite — or on
// PostgreSQL when DATABASE_URL is set. Goal: < 30 s, one charge each. `tsx tests/bench/renewals.ts`.
import { pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { runMigrations } from '../../src/server/db/migrate';
import { seed } from '../../src/server/seed';
import { clients, payments, subscriptions, users } from '../../src/server/db/schema';
import { devMailboxMailer } from '../../src/server/mail/mailer';
import { SandboxProvider } from '../../src/server/payments/sandbox';
import { renewDueSubscriptions } from '../../src/server/plans/renewals';
import { openBenchDatabase } from './bench-database';

export interface RenewalBench {
  subscriptions: number;
  seconds: number;
  perSecond: number;
  charges: number;
  driver: 'pglite' | 'pg';
}

export async function renewalsBench(n = 10_000): Promise<RenewalBench> {
  const { database, drop, driver } = await openBenchDatabase();
  try {
    await runMigrations(database);
    await seed(database.db);
    const db = database.db;
    const now = new Date();
    const provider = new SandboxProvider(() => now);
    const expYear = now.getUTCFullYear() + 3;
    const customer = await provider.createCustomer(provider.tokenize({ number: '4242424242424242', exp_month: 12, exp_year: expYear, cvc: '123' }).id);
    const tag = randomBytes(3).toString('hex');
    const ended = new Date(now.getTime() - 3_600_000);
    for (let i = 0; i < n; i += 1_000) {
      const size = Math.min(1_000, n - i);
      const us = await db
        .insert(users)
        .values(Array.from({ length: size }, (_, k) => ({ username: `bench${tag}${i + k}`, email: `bench${tag}${i + k}@example.com`, passwordHash: 'x' })))
        .returning({ id: users.id });
      const cs = await db
        .insert(clients)
        .values(us.map((u) => ({ userId: u.id, rfc: 'GODE561231GR8', firstName: 'Emma', lastName: 'Gómez', planId: 2 })))
        .returning({ id: clients.id });
      await db.insert(subscriptions).values(
        cs.map((c) => ({
          clientId: c.id,
          planId: 2,
          provider: 'sandbox',
          providerCustomer: customer.customerId,
          providerPaymentMethod: customer.paymentMethodId,
          cardBrand: 'Visa',
          cardLast4: '4242',
          cardExpMonth: 12,
          cardExpYear: expYear,
          status: 'active',
          currentPeriodEnd: ended,
        })),
      );
    }
    const t0 = performance.now();
    const run = await renewDueSubscriptions(db, provider, () => now, devMailboxMailer(db));
    const seconds = (performance.now() - t0) / 1000;
    const [charges] = await db.select({ n: count() }).from(payments).where(eq(payments.kind, 'renewal'));
    if (run.renewed !== n || charges?.n !== n) throw new Error(`esperaba ${n} renovaciones, hubo ${run.renewed} (${charges?.n} cargos)`);
    return { subscriptions: n, seconds: Math.round(seconds * 100) / 100, perSecond: Math.round(n / seconds), charges: charges.n, driver };
  } finally {
    await database.close();
    await drop();
  }
}

/** For run.ts: `renewalsSection({ report })`. */
export async function renewalsSection(deps: { report: (key: string, value: string | number) => void; n?: number }): Promise<void> {
  const r = await renewalsBench(deps.n);
  deps.report(`renewals-${r.driver}-s`, r.seconds);
  deps.report(`renewals-${r.driver}-per-s`, r.perSecond);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await renewalsBench(Number(process.argv[2] ?? 10_000));
  console.log(JSON.stringify(r));
  console.log(r.seconds < 30 ? `OK: ${r.subscriptions} renovaciones en ${r.seconds} s (meta < 30 s)` : `LENTO: ${r.seconds} s (meta < 30 s)`);
}
