// The outbox drain engine (DESIGN §4, pwa-and-style §2.2): one pure function of (db, fetch, clock) run
// unchanged by the page, the service worker and Node tests. Sends in `seq` order, blocking only later
// operations of the same ticket; only a 2xx removes an operation.
import { MSG } from '../domain/messages';
import { LEASE_MS, backoffMs, classify, type Outcome } from '../domain/outbox-ops';
import type { AppDb, BlobRow, OutboxRow } from './db';
import { operationOf } from './operations/registry';
import { opBlobIds, opTickets, refreshPending, removeOp } from './outbox';
import { apiUrl, createHttp, deadlineFor, type Answer, type FetchLike, type Http } from './http';

export type DrainTrigger = 'reconnected' | 'asked';

export interface DrainDeps {
  db: AppDb;
  fetch: FetchLike;
  getToken: () => string | null | Promise<string | null>;
  now?: () => number;
  random?: () => number;
  baseUrl?: string;
  /**
   * Why this drain runs, when it is more than a routine one. 'reconnected' (back online, Background Sync):
   * what failed only for want of a network starts its wait over; what the server asked to wait for (5xx,
   * 429, Retry-After) keeps its wait. 'asked' ("Sincronizar ahora"): every pending operation is due now.
   */
  trigger?: DrainTrigger;
  /** How long a request with a body of this many bytes may take (tests shorten it). */
  deadline?: (bodyBytes: number) => number;
}

export interface DrainResult {
  /** Operations acknowledged by the server (2xx). */
  sent: number;
  /** Operations put back with a backoff (network errors, 408/425/429, 5xx). */
  retried: number;
  /** Operations the server refused (4xx): now 'failed', shown to the user. */
  parked: number;
  /** A 401 (or no session) paused the queue until sign-in. */
  paused: boolean;
  /** The pass stopped on a network error (probably offline). */
  offline: boolean;
  /** Another context (tab or worker) was draining: this call did nothing. */
  busy: boolean;
  /** Operations left in the outbox, parked ones included. */
  remaining: number;
  /** Earliest time a waiting operation becomes due (for a backoff timer), or null. */
  nextAttemptAt: number | null;
}

const LOCK_NAME = 'outbox-drain';
/** Passes per drain: a pass sends at most one operation per ticket, so a chain of N needs N passes. */
const MAX_PASSES = 100;

type LockManagerLike = {
  request<T>(name: string, options: { ifAvailable: boolean }, cb: (lock: unknown) => Promise<T>): Promise<T>;
};

function lockManager(): LockManagerLike | null {
  const nav = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator;
  return nav?.locks && typeof nav.locks.request === 'function' ? nav.locks : null;
}

/** In-process fallback where Web Locks are missing (Node, old browsers): keyed by database name. */
const running = new Set<string>();

/** A drain asked for while one runs here: the running one makes another pass instead. */
const again = new Set<string>();

function emptyResult(): DrainResult {
  return { sent: 0, retried: 0, parked: 0, paused: false, offline: false, busy: false, remaining: 0, nextAttemptAt: null };
}

/** Sends what is due. Never throws for network or server trouble; the result says what happened. */
export async function drainOutbox(deps: DrainDeps): Promise<DrainResult> {
  const key = deps.db.name;
  if (running.has(key)) {
    again.add(key);
    return finish(deps, { ...emptyResult(), busy: true });
  }
  running.add(key);
  try {
    const locks = lockManager();
    const once = () =>
      locks
        ? locks.request(LOCK_NAME, { ifAvailable: true }, async (lock) =>
          lock ? drainLocked(deps) : finish(deps, { ...emptyResult(), busy: true }))
        : drainLocked(deps);
    let result = await once();
    // Asked again while finishing (an enqueue raced the last pass): go once more, so it is not lost.
    while (again.has(key) && !result.paused && !result.offline && !result.busy) {
      again.delete(key);
      const more = await once();
      result = { ...more, sent: result.sent + more.sent, retried: result.retried + more.retried, parked: result.parked + more.parked };
    }
    return result;
  } finally {
    running.delete(key);
    again.delete(key);
  }
}

async function drainLocked(deps: DrainDeps): Promise<DrainResult> {
  const result = emptyResult();
  const token = await deps.getToken();
  if (!token) {
    // Signed out: nothing is sent; it is a pause only if there is something to send.
    const done = await finish(deps, result);
    done.paused = done.remaining > 0;
    return done;
  }
  const http = createHttp({ fetch: deps.fetch, getToken: () => token, baseUrl: deps.baseUrl });
  if (deps.trigger) await forgetOfflineBackoff(deps.db);
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    again.delete(deps.db.name);
    const before = result.sent + result.retried + result.parked;
    // Waits are ignored on the first pass only: an operation that just failed again waits its backoff.
    const stop = await runPass(deps, http, token, result, pass === 0 && deps.trigger === 'asked');
    if (stop) break;
    const progressed = result.sent + result.retried + result.parked > before;
    if (!progressed && !again.has(deps.db.name)) break;
  }
  return finish(deps, result);
}

async function finish(deps: DrainDeps, result: DrainResult): Promise<DrainResult> {
  const now = (deps.now ?? Date.now)();
  const ops = await deps.db.outbox.toArray();
  result.remaining = ops.length;
  let next: number | null = null;
  for (const op of ops) {
    if (op.status === 'failed') continue;
    const due = op.status === 'inflight' ? Math.max(op.leaseUntil, op.nextAttemptAt) : op.nextAttemptAt;
    const at = Math.max(due, now);
    if (next === null || at < next) next = at;
  }
  result.nextAttemptAt = next;
  return result;
}

/**
 * Back online (or "Sincronizar ahora"): operations whose last try got no answer start their waits over.
 * Offline, every drain fails at once and doubles the wait of what it tried, so after an hour away a single
 * hiccup on reconnecting would otherwise hold a ticket's create, and every edit queued behind it, for
 * minutes. What the server answered with an error (5xx, 429) keeps its wait. `attempts` stays: a try
 * without an answer may have reached the server (deleting such a ticket must still ask the server).
 */
async function forgetOfflineBackoff(db: AppDb): Promise<void> {
  await db.transaction('rw', db.outbox, async () => {
    await db.outbox
      .where('status')
      .equals('pending')
      .filter((op) => op.lastStatus === null && (op.backoffAttempts ?? op.attempts) > 0)
      .modify({ backoffAttempts: 0, nextAttemptAt: 0 });
  });
}

/** Whether an operation may be taken now (pending and due, or its lease ran out). */
function isReady(op: OutboxRow, now: number, ignoreWaits = false): boolean {
  if (op.status === 'failed') return false;
  if (op.status === 'inflight' && op.leaseUntil > now) return false;
  return ignoreWaits || op.nextAttemptAt <= now;
}

/**
 * The operations to send in this pass: in seq order, the first unfinished operation of each ticket,
 * when it is due. An operation touching several tickets waits for all of them.
 */
export function pickReady(ops: readonly OutboxRow[], now: number, ignoreWaits = false): OutboxRow[] {
  const blocked = new Set<string>();
  const ready: OutboxRow[] = [];
  for (const op of [...ops].sort((a, b) => (a.seq as number) - (b.seq as number))) {
    const tickets = opTickets(op);
    const free = tickets.every((t) => !blocked.has(t));
    for (const t of tickets) blocked.add(t);
    if (free && isReady(op, now, ignoreWaits)) ready.push(op);
  }
  return ready;
}

/**
 * Requests in flight at once. A pass holds at most one operation per ticket, so they are
 * independent; a few at a time hide the round trip (1,000 queued operations one by one took ~30 s).
 */
export const DRAIN_CONCURRENCY = 4;

/** One pass; returns true when the drain must stop (offline or signed out). */
async function runPass(deps: DrainDeps, http: Http, token: string, result: DrainResult, ignoreWaits: boolean): Promise<boolean> {
  const ready = pickReady(await deps.db.outbox.toArray(), (deps.now ?? Date.now)(), ignoreWaits);
  if (ready.length === 0) return false;
  // The first one alone: when offline or signed out, one failed request is enough to know.
  if (await sendOne(deps, http, token, result, ignoreWaits, ready[0] as OutboxRow)) return true;
  let stop = false;
  let next = 1;
  const worker = async () => {
    while (!stop && next < ready.length) {
      const candidate = ready[next++] as OutboxRow;
      if (await sendOne(deps, http, token, result, ignoreWaits, candidate)) stop = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(DRAIN_CONCURRENCY, ready.length) }, worker));
  return stop;
}

/** Sends one operation and records the outcome; true when the whole drain must stop. */
async function sendOne(
  deps: DrainDeps, http: Http, token: string, result: DrainResult, ignoreWaits: boolean, candidate: OutboxRow,
): Promise<boolean> {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const leased = await lease(db, candidate.seq as number, now(), ignoreWaits, deps.deadline ?? deadlineFor);
  if (!leased) return false;
  const { op, blobs } = leased;
  const operation = operationOf(op.kind);
  if (blobs.length < opBlobIds(op).length) {
    // The bytes are gone (storage cleared by the browser): nothing can be sent, tell the user.
    await park(db, op, null, operation.failureMessage);
    result.parked++;
    return false;
  }
  let answer: Answer | 'network';
  try {
    answer = await http.answer(buildRequest(op, blobs, token, deps.baseUrl), leased.deadline);
  } catch {
    answer = 'network'; // no answer (offline, deadline passed): it may have arrived; the Idempotency-Key makes a resend safe
  }
  const outcome = outcomeOf(answer);
  if (outcome === 'done') {
    await acknowledge(db, op, (answer as Answer).body, now());
    result.sent++;
  } else if (outcome === 'retry') {
    await retryLater(db, op, answer, now(), deps.random ?? Math.random);
    result.retried++;
    if (answer === 'network') {
      result.offline = true;
      return true;
    }
  } else if (outcome === 'pause') {
    await db.outbox.update(op.seq as number, { status: 'pending', leaseUntil: 0, lastStatus: 401 });
    result.paused = true;
    return true;
  } else {
    const a = answer as Answer;
    const gone = a.status === 404 && operation.ticketGone;
    await park(db, op, a.status, gone ? MSG.ticketNotFound : (a.error ?? operation.failureMessage));
    result.parked++;
  }
  return false;
}

/**
 * classify() plus one case of ours: a 409 "still being processed" from the Idempotency-Key layer
 * means the same operation is running on the server right now, so it is retried, not parked.
 */
export function outcomeOf(answer: Answer | 'network'): Outcome {
  if (answer === 'network') return 'retry';
  if (answer.status === 409 && answer.error === MSG.idempotencyInFlight) return 'retry';
  return classify(answer.status);
}

const LEASE_MARGIN_MS = 10_000;

/** Marks the operation inflight if it is still there and still ready (another context may have it). */
async function lease(
  db: AppDb, seq: number, now: number, ignoreWaits: boolean, deadlineOf: (bodyBytes: number) => number,
): Promise<{ op: OutboxRow; blobs: BlobRow[]; deadline: number } | null> {
  return db.transaction('rw', db.outbox, db.blobs, async () => {
    const op = await db.outbox.get(seq);
    if (!op || !isReady(op, now, ignoreWaits)) return null;
    const ids = opBlobIds(op);
    const blobs = ids.length > 0 ? (await db.blobs.bulkGet(ids)).filter((b): b is BlobRow => !!b) : [];
    // An answer that has not come by the deadline counts as a network failure; the lease outlasts it,
    // so no other context sends the operation while it may still be in flight.
    const deadline = deadlineOf(blobs.reduce((sum, b) => sum + b.bytes.byteLength, 0));
    const leaseUntil = now + Math.max(LEASE_MS, deadline + LEASE_MARGIN_MS);
    await db.outbox.update(seq, { status: 'inflight', leaseUntil });
    return { op: { ...op, status: 'inflight', leaseUntil }, blobs, deadline };
  });
}

/** The HTTP request of an operation; `blobs` are its attachment bytes in the operation's order. */
export function buildRequest(op: OutboxRow, blobs: readonly BlobRow[], token: string, baseUrl?: string): Request {
  return operationOf(op.kind).request(op, blobs, {
    headers: { 'Idempotency-Key': op.opId, 'X-Access-Token': token },
    url: (path) => apiUrl(path, baseUrl),
  });
}

/** A 2xx: the operation is done; the ticket is synced once its last operation is. */
async function acknowledge(db: AppDb, op: OutboxRow, body: unknown, now: number): Promise<void> {
  const operation = operationOf(op.kind);
  await db.transaction('rw', [db.tickets, db.outbox, db.blobs], async () => {
    if (!(await db.outbox.get(op.seq as number))) return; // discarded meanwhile
    await removeOp(db, op);
    await operation.acknowledged?.(db, op, body, now);
    await refreshPending(db, opTickets(op), now);
  });
  operation.announce?.(op, body);
}

async function retryLater(db: AppDb, op: OutboxRow, answer: Answer | 'network', now: number, random: () => number): Promise<void> {
  const attempts = op.attempts + 1;
  const backoffAttempts = (op.backoffAttempts ?? op.attempts) + 1;
  const retryAfter = answer === 'network' ? undefined : answer.retryAfter;
  await db.outbox.update(op.seq as number, {
    status: 'pending',
    attempts,
    backoffAttempts,
    leaseUntil: 0,
    nextAttemptAt: now + backoffMs(backoffAttempts, random, retryAfter),
    lastStatus: answer === 'network' ? null : answer.status,
    lastError: answer === 'network' ? null : (answer.error ?? MSG.generic),
  });
}

async function park(db: AppDb, op: OutboxRow, status: number | null, message: string): Promise<void> {
  await db.outbox.update(op.seq as number, {
    status: 'failed', attempts: op.attempts + 1, leaseUntil: 0, lastStatus: status, lastError: message,
  });
}
