// Daily renewal of paid plans: every subscription whose period ended is charged once,
// every attempt is a `payments` row, the receipt goes to the user's e-mail. A failed renewal keeps the
// plan for GRACE_DAYS (status past_due, retried once a run); when the grace is over the account goes back
// to the free plan. A plan its owner cancelled (status 'canceling') is never charged: when its paid period
// is over the account goes back to the free plan. Rows go through in pages with one bulk statement per kind of change.
import { and, asc, eq, gt, inArray, lte, or, sql } from 'drizzle-orm';
import { FREE_PLAN_ID, planById } from '../../domain/plans';
import type { Clock } from '../context';
import type { Db } from '../db/client';
import { clients, payments, subscriptions, users } from '../db/schema';
import type { Mailer, MailMessage } from '../mail/mailer';
import type { ChargeResult, PaymentProvider } from '../payments/provider';
import { receiptMail, renewalFailedMail } from './mail';
import { activeCollaboratorCounter } from './collaborator-count';
import { addMonths, chargeAmount, type CollaboratorCounter } from './pricing';
import { failureText, localPaymentId } from './subscribe';
import { CANCELING } from './cancel';
import { errorSummary } from '../lib/error-summary';

export const GRACE_DAYS = 7;
const DAY_MS = 86_400_000;

export interface RenewalOptions {
  collaborators?: CollaboratorCounter;
  /** Subscriptions read and written per page. */
  pageSize?: number;
  /** Charges in flight at once (the provider is a network call). */
  concurrency?: number;
  /** The app's public address: the e-mails' button opens Perfil there. */
  appUrl?: string;
}

export interface RenewalRun {
  charged: number;
  renewed: number;
  /** Failed and now (or still) in grace. */
  pastDue: number;
  /** Failed after the grace: back on the free plan. */
  downgraded: number;
  /** Cancelled by their owner and now past the paid period: back on the free plan, not charged. */
  ended: number;
}

async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** Cancelled plans whose paid period is over: the account goes to the free plan, the subscription ends. */
export async function endCancelledPeriods(db: Db, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const ended = await tx
      .update(subscriptions)
      .set({ status: 'canceled', updatedAt: now })
      .where(and(eq(subscriptions.status, CANCELING), lte(subscriptions.currentPeriodEnd, now)))
      .returning({ clientId: subscriptions.clientId });
    const ids = ended.map((r) => r.clientId);
    for (let i = 0; i < ids.length; i += 1_000) {
      await tx.update(clients).set({ planId: FREE_PLAN_ID, activeUntil: null }).where(inArray(clients.id, ids.slice(i, i + 1_000)));
    }
    return ids.length;
  });
}

export async function renewDueSubscriptions(
  db: Db,
  provider: PaymentProvider,
  clock: Clock,
  mailer: Mailer,
  opts: RenewalOptions = {},
): Promise<RenewalRun> {
  const now = clock();
  const pageSize = opts.pageSize ?? 1_000;
  const concurrency = opts.concurrency ?? 16;
  const collaborators = opts.collaborators ?? activeCollaboratorCounter(db);
  const run: RenewalRun = { charged: 0, renewed: 0, pastDue: 0, downgraded: 0, ended: await endCancelledPeriods(db, now) };
  const due = or(
    and(eq(subscriptions.status, 'active'), lte(subscriptions.currentPeriodEnd, now)),
    eq(subscriptions.status, 'past_due'),
  );
  let afterId = 0;
  for (;;) {
    const page = await db
      .select({
        id: subscriptions.id,
        clientId: subscriptions.clientId,
        planId: subscriptions.planId,
        status: subscriptions.status,
        customer: subscriptions.providerCustomer,
        paymentMethod: subscriptions.providerPaymentMethod,
        cardBrand: subscriptions.cardBrand,
        cardLast4: subscriptions.cardLast4,
        periodEnd: subscriptions.currentPeriodEnd,
        graceUntil: subscriptions.graceUntil,
        email: users.email,
      })
      .from(subscriptions)
      .innerJoin(clients, eq(clients.id, subscriptions.clientId))
      .innerJoin(users, eq(users.id, clients.userId))
      .where(and(due, gt(subscriptions.id, afterId)))
      .orderBy(asc(subscriptions.id))
      .limit(pageSize);
    if (page.length === 0) break;
    afterId = page[page.length - 1]!.id;
    const counts = await collaborators(page.map((r) => r.clientId));

    const attempts = await pool(page, concurrency, async (r) => {
      const plan = planById(r.planId);
      const amount = plan ? chargeAmount(plan, counts.get(r.clientId) ?? 0) : 0;
      let result: ChargeResult;
      if (!plan || !r.customer || !r.paymentMethod || amount <= 0) result = { ok: false, code: 'other', chargeId: null };
      else {
        result = await provider
          .charge({
            customer: { customerId: r.customer, paymentMethodId: r.paymentMethod },
            amountCents: Math.round(amount * 100),
            description: `Cuentas Claras: renovación ${plan.name}`,
            // Deterministic per period and day: a retried job never charges the same renewal twice.
            idempotencyKey: `renew_${r.id}_${r.periodEnd.getTime()}_${isoDay(now)}`,
          })
          .catch((): ChargeResult => ({ ok: false, code: 'other', chargeId: null }));
      }
      return { r, plan, amount, result };
    });
    run.charged += attempts.length;

    const paymentRows = attempts.map(({ r, amount, result }) => ({
      id: result.chargeId ?? localPaymentId(),
      clientId: r.clientId,
      planId: r.planId,
      amount: amount.toFixed(2),
      successful: result.ok,
      cardBrand: r.cardBrand,
      cardLast4: r.cardLast4,
      kind: 'renewal',
      failure: result.ok ? null : failureText(result.code),
      createdAt: now,
    }));
    const renewed: { id: number; clientId: number; end: Date }[] = [];
    const toPastDue: number[] = [];
    const toCancel: { id: number; clientId: number }[] = [];
    const mails: MailMessage[] = [];
    const grace = new Date(now.getTime() + GRACE_DAYS * DAY_MS);
    for (const { r, plan, amount, result } of attempts) {
      const planName = plan?.name ?? '';
      if (result.ok) {
        let end = r.periodEnd;
        do end = addMonths(end, plan?.interval ?? 1);
        while (end <= now);
        renewed.push({ id: r.id, clientId: r.clientId, end });
        mails.push(
          receiptMail({ to: r.email, paymentId: result.chargeId, planName, amount, cardBrand: r.cardBrand, cardLast4: r.cardLast4, at: now, until: end, appUrl: opts.appUrl }),
        );
      } else if (r.status === 'past_due' && r.graceUntil && r.graceUntil <= now) {
        toCancel.push({ id: r.id, clientId: r.clientId });
        mails.push(renewalFailedMail(r.email, planName, null, opts.appUrl));
      } else {
        // Told once, when the grace starts; the daily retries in grace are silent unless one succeeds.
        if (r.status !== 'past_due') {
          toPastDue.push(r.id);
          mails.push(renewalFailedMail(r.email, planName, grace, opts.appUrl));
        }
      }
    }

    await db.transaction(async (tx) => {
      await tx.insert(payments).values(paymentRows).onConflictDoNothing();
      if (renewed.length) {
        const values = sql.join(
          renewed.map((x) => sql`(${x.id}::int, ${x.clientId}::int, ${x.end.toISOString()}::timestamptz)`),
          sql`, `,
        );
        await tx.execute(sql`UPDATE subscriptions s SET status = 'active', grace_until = NULL, current_period_end = v.end_at, updated_at = ${now.toISOString()}::timestamptz
          FROM (VALUES ${values}) AS v(id, client_id, end_at) WHERE s.id = v.id`);
        await tx.execute(sql`UPDATE clients c SET active_until = v.end_at
          FROM (VALUES ${values}) AS v(id, client_id, end_at) WHERE c.id = v.client_id`);
      }
      if (toPastDue.length) {
        await tx
          .update(subscriptions)
          .set({ status: 'past_due', graceUntil: grace, updatedAt: now })
          .where(inArray(subscriptions.id, toPastDue));
      }
      if (toCancel.length) {
        await tx
          .update(subscriptions)
          .set({ status: 'canceled', updatedAt: now })
          .where(inArray(subscriptions.id, toCancel.map((x) => x.id)));
        await tx
          .update(clients)
          .set({ planId: FREE_PLAN_ID, activeUntil: null })
          .where(inArray(clients.id, toCancel.map((x) => x.clientId)));
      }
      const failedOnly = attempts.filter((a) => !a.result.ok && !toCancel.some((x) => x.id === a.r.id)).map((a) => a.r.clientId);
      if (failedOnly.length) {
        // No-op write: the accounts cache (clients trigger) drops the history it held.
        await tx.update(clients).set({ planId: sql`${clients.planId}` }).where(inArray(clients.id, failedOnly));
      }
    });
    run.renewed += renewed.length;
    run.pastDue += attempts.length - renewed.length - toCancel.length;
    run.downgraded += toCancel.length;
    // After the commit: a mail server being down never undoes a charge.
    await pool(mails, concurrency, (m) => mailer.send(m).catch((err: unknown) => console.error('[plans] correo no enviado:', errorSummary(err))));
  }
  return run;
}
