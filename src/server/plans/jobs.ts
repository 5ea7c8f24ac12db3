// The daily renewal as a durable pg-boss job (singleton: runs never overlap; retried with backoff).
import type PgBoss from 'pg-boss';
import type { Clock } from '../context';
import type { Db } from '../db/client';
import type { Mailer } from '../mail/mailer';
import type { PaymentProvider } from '../payments/provider';
import { paymentProviderFromEnv } from '../payments/select';
import { renewDueSubscriptions } from './renewals';

export const RENEWALS_QUEUE = 'plan-renewals';
/** 07:10 UTC = 01:10 in Mexico City: after midnight there, so a period ending "today" is charged today. */
export const RENEWALS_CRON = '10 7 * * *';

export interface RenewalWorkerDeps {
  db: Db;
  mailer: Mailer;
  clock?: Clock;
  provider?: PaymentProvider;
  /** The app's public address, for the e-mails' button. */
  appUrl?: string;
}

export async function startRenewalWorker(boss: PgBoss, deps: RenewalWorkerDeps): Promise<void> {
  const clock = deps.clock ?? (() => new Date());
  const provider = deps.provider ?? paymentProviderFromEnv(clock);
  await boss.createQueue(RENEWALS_QUEUE, { name: RENEWALS_QUEUE, policy: 'singleton', retryLimit: 3, retryDelay: 600, retryBackoff: true });
  await boss.work(RENEWALS_QUEUE, async () => {
    const run = await renewDueSubscriptions(deps.db, provider, clock, deps.mailer, { appUrl: deps.appUrl });
    if (run.charged || run.ended) {
      console.log(
        `[planes] renovaciones: ${run.renewed} cobradas, ${run.pastDue} en gracia, ${run.downgraded} regresaron al plan Gratuito, ${run.ended} cancelados terminaron su periodo`,
      );
    }
  });
  await boss.schedule(RENEWALS_QUEUE, RENEWALS_CRON);
}
