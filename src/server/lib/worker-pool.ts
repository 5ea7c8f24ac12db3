// CPU work off the event loop: a small pool of worker threads, created on first use and unref'd while
// idle (it never keeps the process alive), with an in-process fallback (size 0, or workers that keep
// failing to start). A job may have a time budget: over it, its worker is terminated (whatever it was
// stuck in), replaced, and the job gets the pool's `lost` answer — as it does when its worker dies.
// Workers speak one protocol: they post {ready:true} once loaded (start-up never counts against a
// budget), then answer each {id, ...request} with {id, value} or {id, error}.
import { Worker, type ResourceLimits } from 'node:worker_threads';

export interface WorkerPoolOptions<Req, Res> {
  /** Said in the one log line when workers are given up on. */
  name: string;
  /** Workers at most; 0 runs every job in-process. */
  size: number;
  /** The worker module: its compiled .js, or from TypeScript sources an .mjs that registers tsx first. */
  entry: URL;
  resourceLimits?: ResourceLimits;
  /** A job's time on a worker, from when the worker takes it; none when absent. */
  budgetMs?: number;
  /** The job run in-process: the fallback, and what each worker runs. */
  inline(req: Req): Promise<Res>;
  /** A job whose worker died or ran over budget: run again in-process, or answered with this value. */
  lost: 'inline' | { value: Res };
  /** Buffers moved to the worker instead of copied. */
  transfer?(req: Req): ArrayBuffer[];
  /**
   * Jobs handed to one worker at a time (default 1), for workers that answer in order (a synchronous
   * handler): the next ones wait in the worker's own queue, so it goes on without waiting for the event
   * loop to answer its last message. Each job's budget still starts when the worker takes it: when the
   * answer before it arrives. A job over budget takes its worker down; the jobs queued behind it go back
   * to the pool's queue untouched.
   */
  pipeline?: number;
}

interface Job<Req, Res> {
  req: Req;
  resolve: (v: Res) => void;
  reject: (err: Error) => void;
}

interface Slot<Req, Res> {
  worker: Worker;
  ready: boolean;
  /** Handed to the worker, in order: the first is the one it is running. */
  jobs: Job<Req, Res>[];
  timer: NodeJS.Timeout | null;
}

/** A worker's module next to the caller's: `name.js` when compiled, `name-entry.mjs` from TypeScript. */
export function workerEntry(callerUrl: string, name: string): URL {
  const fromTs = callerUrl.endsWith('.ts');
  return new URL(fromTs ? `./${name}-entry.mjs` : `./${name}.js`, callerUrl);
}

export class WorkerPool<Req, Res> {
  private readonly slots: Slot<Req, Res>[] = [];
  private readonly queue: Job<Req, Res>[] = [];
  private broken = false;
  private closed = false;
  private failures = 0;
  private nextId = 1;
  /** Jobs done by workers, in-process, and lost (a worker over budget or dead with the job). */
  readonly counts = { workers: 0, inline: 0, lost: 0 };

  constructor(private readonly options: WorkerPoolOptions<Req, Res>) {}

  get size(): number {
    return this.options.size;
  }

  run(req: Req): Promise<Res> {
    if (this.closed) return Promise.reject(this.closedError());
    if (this.options.size <= 0 || this.broken) return this.inline(req);
    return new Promise((resolve, reject) => {
      this.queue.push({ req, resolve, reject });
      this.pump();
    });
  }

  private get depth(): number {
    return Math.max(1, this.options.pipeline ?? 1);
  }

  /**
   * Ends the workers. Every job not yet answered (running, handed over, or waiting) is rejected, so its
   * caller fails (an import job is then retried by pg-boss) instead of waiting forever.
   */
  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    const closed = this.closedError();
    for (const job of [...slots.flatMap((s) => s.jobs.splice(0)), ...this.queue.splice(0)]) job.reject(closed);
    for (const s of slots) if (s.timer) clearTimeout(s.timer);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private closedError(): Error {
    return new Error(`${this.options.name}: cerrado`);
  }

  private inline(req: Req): Promise<Res> {
    this.counts.inline++;
    try {
      return this.options.inline(req);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private pump(): void {
    while (this.queue.length > 0) {
      // An idle worker first, then one with room in its queue.
      const ready = this.slots.filter((s) => s.ready && s.jobs.length < this.depth);
      const slot = ready.length > 0 ? ready.reduce((a, b) => (b.jobs.length < a.jobs.length ? b : a)) : undefined;
      // Start another worker when all are busy (or still starting) and there is room.
      if ((!slot || slot.jobs.length > 0) && this.canSpawn()) this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.jobs.push(job);
      slot.worker.ref(); // keep the process up while a job runs
      if (slot.jobs.length === 1) this.startBudget(slot);
      slot.worker.postMessage({ id: this.nextId++, ...job.req }, this.options.transfer?.(job.req) ?? []);
    }
  }

  private canSpawn(): boolean {
    return this.slots.length < this.options.size && !this.slots.some((s) => !s.ready);
  }

  /** The budget of the job the worker is running (the first of its queue), from now. */
  private startBudget(slot: Slot<Req, Res>): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    if (this.options.budgetMs !== undefined && slot.jobs.length > 0) slot.timer = setTimeout(() => this.overBudget(slot), this.options.budgetMs);
  }

  /** The job took too long: its worker is terminated and replaced. */
  private overBudget(slot: Slot<Req, Res>): void {
    slot.timer = null;
    this.remove(slot);
    void slot.worker.terminate();
    this.release(slot);
    this.pump();
  }

  /** A worker gone with its jobs: the one it was running is lost, the ones it had not begun go first in line. */
  private release(slot: Slot<Req, Res>): void {
    const [running, ...waiting] = slot.jobs.splice(0);
    this.queue.unshift(...waiting);
    if (running) this.answerLost(running);
  }

  private answerLost(job: Job<Req, Res>): void {
    this.counts.lost++;
    const { lost } = this.options;
    if (lost === 'inline') this.inline(job.req).then(job.resolve, job.reject);
    else job.resolve(lost.value);
  }

  private remove(slot: Slot<Req, Res>): void {
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
  }

  /** Workers that keep failing to start are given up on: everything then runs in-process. */
  private giveUp(err: unknown): void {
    if (!this.broken) console.error(`[${this.options.name}] los hilos de trabajo fallan; se trabaja en el proceso:`, err);
    this.broken = true;
    for (const job of this.queue.splice(0)) this.inline(job.req).then(job.resolve, job.reject);
  }

  private spawn(): void {
    let worker: Worker;
    try {
      worker = new Worker(this.options.entry, this.options.resourceLimits ? { resourceLimits: this.options.resourceLimits } : {});
    } catch (err) {
      this.giveUp(err);
      return;
    }
    worker.unref();
    const slot: Slot<Req, Res> = { worker, ready: false, jobs: [], timer: null };
    worker.on('message', (msg: { ready?: boolean; value?: Res; error?: string }) => {
      if (msg.ready) {
        slot.ready = true;
        this.failures = 0;
        this.pump();
        return;
      }
      // Answers come in the order the jobs were handed over: this one is the first, and the next begins now.
      const job = slot.jobs.shift();
      this.startBudget(slot);
      if (slot.jobs.length === 0) worker.unref();
      if (job) {
        this.counts.workers++;
        if (msg.error !== undefined) job.reject(new Error(msg.error));
        else job.resolve(msg.value as Res);
      }
      this.pump();
    });
    const fail = (err: Error) => {
      if (!this.slots.includes(slot)) return; // terminated over budget: already handled
      // Only workers that never became ready count towards giving up (a job that kills one does not).
      const starting = !slot.ready;
      this.remove(slot);
      if (slot.timer) clearTimeout(slot.timer);
      this.release(slot);
      if (starting && ++this.failures >= 3) this.giveUp(err);
      else this.pump();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (code !== 0) fail(new Error(`salió con código ${code}`));
    });
    this.slots.push(slot);
  }
}

/** A worker's side of the protocol: says it is ready, then answers each request with `handle`'s value. */
export function serveWorkerJobs<Req, Res>(
  port: { on(event: 'message', l: (msg: Req & { id: number }) => void): void; postMessage(msg: unknown, transfer?: ArrayBuffer[]): void } | null,
  handle: (req: Req) => Res | Promise<Res>,
  transfer?: (value: Res) => ArrayBuffer[],
): void {
  if (!port) return;
  port.on('message', (msg) => {
    Promise.resolve()
      .then(() => handle(msg))
      .then(
        (value) => port.postMessage({ id: msg.id, value }, transfer?.(value) ?? []),
        (err: unknown) => port.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) }),
      );
  });
  port.postMessage({ ready: true });
}
