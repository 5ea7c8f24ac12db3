// CFDI PDFs rendered on worker threads. pdfkit spends ~10 ms of CPU per invoice: on the event loop that
// would stall every API request meanwhile, and it would use one core of many. A small pool (one worker
// per core, created on first use, unref'd so it never keeps the process alive) renders them instead;
// PDF_WORKERS=0 renders in-process (and so does any failure to start a worker).
import { readPdfWorkers } from '../config';
import { WorkerPool, workerEntry } from '../lib/worker-pool';
import { renderCfdiPdf, type RenderOptions } from './pdf';
import { readCfdi } from './read';

export interface PdfJob {
  xml: Uint8Array;
  options: RenderOptions;
}

/** In-process rendering: what each worker runs, and the fallback. */
export async function renderPdfInline(xml: Uint8Array, options: RenderOptions = {}): Promise<Uint8Array> {
  const read = readCfdi(xml);
  if (!read.ok) throw new Error(`CFDI ilegible para el PDF: ${read.reason}`);
  return renderCfdiPdf(xml, read.cfdi, options);
}

export class PdfPool {
  private readonly pool: WorkerPool<PdfJob, Uint8Array>;

  constructor(readonly size: number) {
    this.pool = new WorkerPool<PdfJob, Uint8Array>({
      name: 'pdf',
      size,
      entry: workerEntry(import.meta.url, 'pdf-worker'),
      inline: (job) => renderPdfInline(job.xml, job.options),
      // A worker that dies with a PDF loses nothing: that one is made in-process.
      lost: 'inline',
    });
  }

  /** How many PDFs the workers made, and how many were made in-process instead. */
  get counts(): { workers: number; inline: number } {
    return { workers: this.pool.counts.workers, inline: this.pool.counts.inline };
  }

  render(xml: Uint8Array, options: RenderOptions = {}): Promise<Uint8Array> {
    return this.pool.run({ xml, options });
  }

  close(): Promise<void> {
    return this.pool.close();
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
