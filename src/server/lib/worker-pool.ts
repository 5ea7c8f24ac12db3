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
}

interface Job<Req, Res> {
  req: Req;
  resolve: (v: Res) => void;
  reject: (err: Error) => void;
}

interface Slot<Req, Res> {
  worker: Worker;
  ready: boolean;
  job: Job<Req, Res> | null;
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
  private failures = 0;
  private nextId = 1;
  /** Jobs done by workers, in-process, and lost (a worker over budget or dead with the job). */
  readonly counts = { workers: 0, inline: 0, lost: 0 };

  constructor(private readonly options: WorkerPoolOptions<Req, Res>) {}

  get size(): number {
    return this.options.size;
  }

  run(req: Req): Promise<Res> {
    if (this.options.size <= 0 || this.broken) return this.inline(req);
    return new Promise((resolve, reject) => {
      this.queue.push({ req, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    for (const s of slots) if (s.timer) clearTimeout(s.timer);
    await Promise.all(slots.map((s) => s.worker.terminate()));
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
      const slot = this.slots.find((s) => s.ready && s.job === null);
      if (!slot) {
        // Start another worker when all are busy (or still starting) and there is room.
        if (this.slots.length < this.options.size && !this.slots.some((s) => !s.ready)) this.spawn();
        return;
      }
      const job = this.queue.shift()!;
      slot.job = job;
      slot.worker.ref(); // keep the process up while a job runs
      if (this.options.budgetMs !== undefined) slot.timer = setTimeout(() => this.overBudget(slot), this.options.budgetMs);
      slot.worker.postMessage({ id: this.nextId++, ...job.req }, this.options.transfer?.(job.req) ?? []);
    }
  }

  /** The job took too long: its worker is terminated and replaced. */
  private overBudget(slot: Slot<Req, Res>): void {
    const job = slot.job;
    slot.job = null;
    slot.timer = null;
    this.remove(slot);
    void slot.worker.terminate();
    if (job) this.answerLost(job);
    this.pump();
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
    const slot: Slot<Req, Res> = { worker, ready: false, job: null, timer: null };
    worker.on('message', (msg: { ready?: boolean; value?: Res; error?: string }) => {
      if (msg.ready) {
        slot.ready = true;
        this.failures = 0;
        this.pump();
        return;
      }
      const job = slot.job;
      if (slot.timer) clearTimeout(slot.timer);
      slot.timer = null;
      slot.job = null;
      worker.unref();
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
      if (slot.job) {
        const job = slot.job;
        slot.job = null;
        this.answerLost(job);
      }
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
