// Where the SAT sync routes find their portal and the job queue: the worker (main.ts) provides them for
// the app's database; without a worker (tests of the routes alone) the routes use the portal the
// environment selects and queue nothing. Kept by database so two apps in one process (tests) stay apart.
import type { Db } from '../db/client';
import type { Clock } from '../context';
import type { SatPortal } from './port';
import { portalFromEnv } from './select';
import type { DemoIssuer } from './simulated-portal';
import type { SatSyncJob } from './sync';

export interface SatSyncQueue {
  /** Queues a sync (marks the account running); answers the pg-boss job id (null when one is already queued). */
  enqueue(job: SatSyncJob): Promise<string | null>;
}

export interface SatSyncRuntime {
  portal: SatPortal;
  queue?: SatSyncQueue;
}

const provided = new WeakMap<Db, SatSyncRuntime>();
const defaults = new WeakMap<Db, SatSyncRuntime>();

export function provideSatSync(db: Db, runtime: SatSyncRuntime): void {
  provided.set(db, runtime);
}

/** `demoMerchants`: the simulated portal's issuers, should the environment select it. */
export function satSyncRuntime(db: Db, clock: Clock, demoMerchants: readonly DemoIssuer[]): SatSyncRuntime {
  const given = provided.get(db);
  if (given) return given;
  let fallback = defaults.get(db);
  if (!fallback) {
    fallback = { portal: portalFromEnv(db, clock, demoMerchants) };
    defaults.set(db, fallback);
  }
  return fallback;
}
