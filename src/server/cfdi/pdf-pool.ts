// CFDI PDFs rendered on worker threads. pdfkit spends ~10 ms of CPU per invoice: on the event loop that
// would stall every API request meanwhile, and it would use one core of many. A small pool (one worker
// per core, created on first use, unref'd so it never keeps the process alive) renders them instead;
// PDF_WORKERS=0 renders in-process (and so does any failure to start a worker).
import { Worker } from 'node:worker_threads';
import { readPdfWorkers } from '../config';
import { renderCfdiPdf, type RenderOptions } from './pdf';
import { readCfdi } from './read';

interface Job {
  xml: Uint8Array;
  options: RenderOptions;
  resolve: (pdf: Uint8Array) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

/** In-process rendering: what each worker runs, and the fallback. */
export async function renderPdfInline(xml: Uint8Array, options: RenderOptions = {}): Promise<Uint8Array> {
  const read = readCfdi(xml);
  if (!read.ok) throw new Error(`CFDI ilegible para el PDF: ${read.reason}`);
  return renderCfdiPdf(xml, read.cfdi, options);
}

export class PdfPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private broken = false;
  private failures = 0;
  /** How many PDFs the workers made, and how many were made in-process instead. */
  readonly counts = { workers: 0, inline: 0 };

  constructor(readonly size: number) {}

  render(xml: Uint8Array, options: RenderOptions = {}): Promise<Uint8Array> {
    if (this.size <= 0 || this.broken) return this.inline({ xml, options });
    return new Promise((resolve, reject) => {
      this.queue.push({ xml, options, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.job === null);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.job = job;
      slot.worker.ref(); // keep the process up while a PDF is being made
      slot.worker.postMessage({ xml: job.xml, options: job.options });
    }
  }

  private inline(job: Pick<Job, 'xml' | 'options'>): Promise<Uint8Array> {
    this.counts.inline++;
    return renderPdfInline(job.xml, job.options);
  }

  /** Workers that keep dying are given up on: everything is then made in-process. */
  private giveUp(err: unknown): void {
    if (!this.broken) console.error('[pdf] los hilos de trabajo fallan; los PDF se generan en el proceso:', err);
    this.broken = true;
    for (const job of this.queue.splice(0)) this.inline(job).then(job.resolve, job.reject);
  }

  private spawn(): Slot | undefined {
    let worker: Worker;
    try {
      // From TypeScript sources (tsx, tests) the worker first registers tsx's loader (pdf-worker-entry.mjs).
      const fromTs = import.meta.url.endsWith('.ts');
      worker = new Worker(new URL(fromTs ? './pdf-worker-entry.mjs' : './pdf-worker.js', import.meta.url));
    } catch (err) {
      this.giveUp(err);
      return undefined;
    }
    worker.unref();
    const slot: Slot = { worker, job: null };
    worker.on('message', (msg: { pdf?: Uint8Array; error?: string }) => {
      const job = slot.job;
      slot.job = null;
      worker.unref();
      if (job) {
        this.failures = 0;
        if (msg.pdf) {
          this.counts.workers++;
          job.resolve(msg.pdf);
        } else job.reject(new Error(msg.error ?? 'PDF no generado'));
      }
      this.pump();
    });
    const fail = (err: Error) => {
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      if (slot.job) {
        // The worker died with a job: that one is made in-process, so a bad worker loses nothing.
        const job = slot.job;
        slot.job = null;
        this.inline(job).then(job.resolve, job.reject);
      }
      if (++this.failures >= 3) this.giveUp(err);
      else this.pump();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (code !== 0) fail(new Error(`salió con código ${code}`));
    });
    this.slots.push(slot);
    return slot;
  }
}

let shared: PdfPool | undefined;

/** The process's pool: PDF_WORKERS workers (default: one per core, at most 4). */
export function pdfPool(): PdfPool {
  if (!shared) shared = new PdfPool(readPdfWorkers());
  return shared;
}

/** A CFDI's printed form, with SAT's verification QR, made off the event loop. */
export function renderCfdiPdfOffThread(xml: Uint8Array, options: RenderOptions = {}): Promise<Uint8Array> {
  return pdfPool().render(xml, options);
}
