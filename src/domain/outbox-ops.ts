// Offline writes (DESIGN §4): what an outbox operation is, how a response is classified, and the
// retry backoff. Shared by the page, the service worker and the Node tests.

export type OpKind = 'ticket.create' | 'ticket.update' | 'ticket.attach_image' | 'ticket.delete' | 'files.upload';

/** String states on purpose: booleans and null cannot be indexed in IndexedDB. */
export type OpStatus = 'pending' | 'inflight' | 'failed';

export interface OutboxOp {
  /** Auto-increment: the order of the user's actions. */
  seq?: number;
  /** UUIDv7; doubles as the Idempotency-Key. */
  opId: string;
  kind: OpKind;
  /** The ticket it concerns: later operations of the same ticket wait for earlier ones. */
  ticketId: string;
  /** For ticket.delete of several tickets: every ticket it concerns. */
  ticketIds?: string[];
  /** JSON body (or, for images, the form field metadata). */
  payload: unknown;
  /** Attachment bytes kept in the blobs table until sent. */
  blobId?: string;
  /** files.upload: one blob per file of the batch, in the order they are sent. */
  blobIds?: string[];
  status: OpStatus;
  /** Every try, answered or not: one that never got an answer may still have reached the server. */
  attempts: number;
  /**
   * The tries the next wait doubles from: `attempts` until a reconnection starts the waits of what
   * only failed for want of a network over (drain.ts). Absent on rows written before it existed.
   */
  backoffAttempts?: number;
  /** Epoch ms before which it is not retried. */
  nextAttemptAt: number;
  /** Epoch ms; an inflight op whose lease passed is pending again (a killed worker strands nothing). */
  leaseUntil: number;
  /** The server's Spanish message when parked, or the last network error. */
  lastError: string | null;
  /** HTTP status of the last answer, if any. */
  lastStatus: number | null;
  createdAt: number;
  /** The account it was made under, for the "Pendientes de envío" view. */
  rfc: string;
  /** A short Spanish description for that view, e.g. "Gasto de $120.00 del 2026/11/22". */
  label: string;
}

export type Outcome = 'done' | 'retry' | 'pause' | 'park';

/**
 * What to do with an answer (DESIGN §4): only a 2xx removes an operation; network errors, 408,
 * 425, 429 and 5xx retry with backoff; 401 pauses the queue until sign-in; any other 4xx (409
 * included) parks it with the server's message for the user to retry or discard.
 */
export function classify(status: number | 'network'): Outcome {
  if (status === 'network') return 'retry';
  if (status >= 200 && status < 300) return 'done';
  if (status === 401) return 'pause';
  if (status === 408 || status === 425 || status === 429 || status >= 500) return 'retry';
  return 'park';
}

export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_MAX_MS = 5 * 60_000;
export const LEASE_MS = 60_000;

/**
 * Exponential backoff with full jitter: attempt 1 waits up to 2 s, then 4, 8, … capped at 5 min.
 * A Retry-After from the server (seconds) is honoured when longer.
 */
export function backoffMs(attempts: number, random: () => number = Math.random, retryAfterSeconds?: number): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  const jittered = Math.round(ceiling / 2 + (random() * ceiling) / 2);
  const floor = retryAfterSeconds && retryAfterSeconds > 0 ? retryAfterSeconds * 1000 : 0;
  return Math.max(jittered, floor);
}
