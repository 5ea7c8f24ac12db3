// Untrusted files are read on worker threads with a time budget (DESIGN §5): a PDF's text scan and a
// CFDI's XML parse run there, so no file can stall the API's event loop, and a file that takes longer
// than its budget has its worker terminated (a new one takes its place) and is answered 'timeout', which
// the import turns into 'rechazado' with MSG.importParseTimeout. A CFDI's seals are checked there too,
// within the same budget. Same shape as the PDF pool (cfdi/pdf-pool.ts): created on first use, unref'd
// while idle; PARSE_WORKERS=0 (or workers failing to start) reads in-process, without a budget.
import { Worker } from 'node:worker_threads';
import { readParsePoolEnv } from '../config';
import type { PdfFacts } from './pdf-text';
import { runParse, type CheckedCfdiRead, type ParseRequest, type ParseValue } from './parse-task';

/** A file's time on a worker, from when the worker takes it. */
export const PARSE_BUDGET_MS = 10_000;

export type Parsed<T> = T | 'timeout';

/** How the import reads untrusted files. */
export interface FileParser {
  pdfFacts(bytes: Uint8Array): Promise<Parsed<PdfFacts>>;
  /** The CFDI read and, when accepted, its seals checked (parse-task.ts). */
  readCfdi(bytes: Uint8Array): Promise<Parsed<CheckedCfdiRead>>;
}

interface Job {
  req: Omit<ParseRequest, 'id'>;
  resolve: (v: Parsed<ParseValue>) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

/**
 * The bytes with a buffer of their own: posting a view clones its WHOLE buffer, and a file read out of a
 * request's pack is a view of the pack (up to megabytes, once per file).
 */
export function ownBuffer(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

export class ParsePool implements FileParser {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private broken = false;
  private failures = 0;
  private nextId = 1;
  /** Files read by workers, in-process, and stopped over budget (workers terminated). */
  readonly counts = { workers: 0, inline: 0, timeouts: 0 };

  constructor(
    readonly size: number,
    readonly budgetMs: number = PARSE_BUDGET_MS,
  ) {}

  pdfFacts(bytes: Uint8Array): Promise<Parsed<PdfFacts>> {
    return this.run({ kind: 'pdf', bytes }) as Promise<Parsed<PdfFacts>>;
  }

  readCfdi(bytes: Uint8Array): Promise<Parsed<CheckedCfdiRead>> {
    return this.run({ kind: 'xml', bytes }) as Promise<Parsed<CheckedCfdiRead>>;
  }

  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    for (const s of slots) if (s.timer) clearTimeout(s.timer);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private run(req: Job['req']): Promise<Parsed<ParseValue>> {
    if (this.size <= 0 || this.broken) return this.inline(req);
    return new Promise((resolve, reject) => {
      this.queue.push({ req, resolve, reject });
      this.pump();
    });
  }

  private inline(req: Job['req']): Promise<Parsed<ParseValue>> {
    this.counts.inline++;
    try {
      return Promise.resolve(runParse(req));
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => s.ready && s.job === null);
      if (!slot) {
        // Start another worker when all are busy (or still starting) and there is room.
        if (this.slots.length < this.size && !this.slots.some((s) => !s.ready)) this.spawn();
        return;
      }
      const job = this.queue.shift()!;
      slot.job = job;
      slot.worker.ref(); // keep the process up while a file is being read
      slot.timer = setTimeout(() => this.overBudget(slot), this.budgetMs);
      slot.worker.postMessage({ id: this.nextId++, ...job.req, bytes: ownBuffer(job.req.bytes) });
    }
  }

  /** The file took too long: its worker is terminated (whatever it was stuck in) and replaced. */
  private overBudget(slot: Slot): void {
    const job = slot.job;
    slot.job = null;
    slot.timer = null;
    this.remove(slot);
    this.counts.timeouts++;
    void slot.worker.terminate();
    job?.resolve('timeout');
    this.pump();
  }

  private remove(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
  }

  /** Workers that keep dying are given up on: everything is then read in-process. */
  private giveUp(err: unknown): void {
    if (!this.broken) console.error('[import] los hilos de lectura fallan; los archivos se leen en el proceso:', err);
    this.broken = true;
    for (const job of this.queue.splice(0)) this.inline(job.req).then(job.resolve, job.reject);
  }

  private spawn(): void {
    let worker: Worker;
    try {
      // From TypeScript sources (tsx, tests) the worker first registers tsx's loader (parse-worker-entry.mjs).
      const fromTs = import.meta.url.endsWith('.ts');
      worker = new Worker(new URL(fromTs ? './parse-worker-entry.mjs' : './parse-worker.js', import.meta.url), {
        // A file that makes its reader balloon kills that worker only (and is refused).
        resourceLimits: { maxOldGenerationSizeMb: 256 },
      });
    } catch (err) {
      this.giveUp(err);
      return;
    }
    worker.unref();
    const slot: Slot = { worker, ready: false, job: null, timer: null };
    worker.on('message', (msg: { ready?: boolean; value?: ParseValue; error?: string }) => {
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
        else job.resolve(msg.value!);
      }
      this.pump();
    });
    const fail = (err: Error) => {
      if (!this.slots.includes(slot)) return; // terminated over budget: already handled
      // Only workers that never became ready count towards giving up (a file that kills one does not).
      const starting = !slot.ready;
      this.remove(slot);
      if (slot.timer) clearTimeout(slot.timer);
      if (slot.job) {
        // The worker died with a file (out of memory, say): that file is refused like one over budget,
        // never retried on the event loop.
        const job = slot.job;
        slot.job = null;
        this.counts.timeouts++;
        job.resolve('timeout');
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

let shared: ParsePool | undefined;

/** The process's pool: PARSE_WORKERS workers (default: one per core, at most 2), PARSE_BUDGET_MS each file. */
export function parsePool(): ParsePool {
  if (!shared) {
    const { workers, budgetMs } = readParsePoolEnv();
    shared = new ParsePool(workers, budgetMs ?? PARSE_BUDGET_MS);
  }
  return shared;
}
