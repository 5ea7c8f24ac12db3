// Invoice requests as durable pg-boss jobs: one job per request (queue policy 'stately' with the request
// id as singletonKey: at most one waiting and one running per request), retried with backoff. Running a
// request again is harmless (process.ts resumes at the first step not done). Hourly, the cancellations
// of replaced invoices still waiting for their receptor are followed up at the PAC.
import type PgBoss from 'pg-boss';
import { followPendingCancellations } from '../cfdi/cancellation';
import { giveUp, processInvoiceRequest, type InvoiceDeps } from './process';
import { errorSummary } from '../lib/error-summary';

export const INVOICE_QUEUE = 'invoice-request';
export const CANCELLATIONS_QUEUE = 'invoice-cancellations';
/** Every hour at :23: a receptor has 72 hours, so an hour's delay in noticing its answer is fine. */
export const CANCELLATIONS_CRON = '23 * * * *';
const RETRY = { retryLimit: 6, retryDelay: 10, retryBackoff: true, expireInMinutes: 15 } as const;

/** How the routes hand a request over to the worker. */
export interface InvoiceQueue {
  enqueue(requestId: string): Promise<void>;
}

interface InvoiceJob {
  requestId: string;
}

export async function startInvoiceWorker(
  boss: PgBoss,
  deps: InvoiceDeps,
  opts: { pollingIntervalSeconds?: number; retryDelaySeconds?: number } = {},
): Promise<InvoiceQueue> {
  await boss.createQueue(INVOICE_QUEUE, { name: INVOICE_QUEUE, policy: 'stately' });
  let workerId = '';
  const nudge = () => {
    if (workerId) boss.notifyWorker(workerId);
  };
  workerId = await boss.work<InvoiceJob>(INVOICE_QUEUE, { includeMetadata: true, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 0.5 }, async (jobs) => {
    setImmediate(nudge);
    for (const job of jobs) {
      try {
        await processInvoiceRequest(deps, job.data.requestId);
      } catch (err) {
        if (job.retryCount < job.retryLimit) throw err;
        console.error('[invoicing] sin más reintentos:', job.data.requestId, errorSummary(err));
        await giveUp(deps, job.data.requestId);
      }
    }
  });
  await boss.createQueue(CANCELLATIONS_QUEUE, { name: CANCELLATIONS_QUEUE, policy: 'singleton', retryLimit: 2, retryDelay: 300 });
  await boss.work(CANCELLATIONS_QUEUE, async () => {
    const changed = await followPendingCancellations(deps);
    if (changed) console.log(`[invoicing] ${changed} cancelaciones resueltas por el receptor o el plazo`);
  });
  await boss.schedule(CANCELLATIONS_QUEUE, CANCELLATIONS_CRON);
  return {
    async enqueue(requestId) {
      await boss.send(INVOICE_QUEUE, { requestId }, { ...RETRY, retryDelay: opts.retryDelaySeconds ?? RETRY.retryDelay, singletonKey: requestId });
      nudge();
    },
  };
}
