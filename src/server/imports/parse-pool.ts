// Untrusted files are read on worker threads with a time budget (DESIGN §5): a PDF's text scan and a
// CFDI's XML parse run there, so no file can stall the API's event loop, and a file that takes longer
// than its budget has its worker terminated (a new one takes its place) and is answered 'timeout', which
// the import turns into 'rechazado' with MSG.importParseTimeout. A CFDI's seals are checked there too,
// within the same budget. The pool is lib/worker-pool.ts, as the PDFs'; PARSE_WORKERS=0 (or workers
// failing to start) reads in-process, without a budget.
import { readParsePoolEnv } from '../config';
import { WorkerPool, workerEntry } from '../lib/worker-pool';
import type { PdfFacts } from './pdf-text';
import { runParse, type CheckedCfdiRead, type ParseRequest, type ParseValue } from './parse-task';

/** A file's time on a worker, from when the worker takes it. */
export const PARSE_BUDGET_MS = 10_000;

/** Files handed to one worker at a time (lib/worker-pool.ts `pipeline`). */
const PARSE_PIPELINE = 4;

export type Parsed<T> = T | 'timeout';

/** How the import reads untrusted files. */
export interface FileParser {
  pdfFacts(bytes: Uint8Array): Promise<Parsed<PdfFacts>>;
  /** The CFDI read and, when accepted, its seals checked (parse-task.ts). */
  readCfdi(bytes: Uint8Array): Promise<Parsed<CheckedCfdiRead>>;
}

/**
 * The bytes with a buffer of their own: posting a view clones its WHOLE buffer, and a file read out of a
 * request's pack is a view of the pack (up to megabytes, once per file).
 */
export function ownBuffer(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

export class ParsePool implements FileParser {
  private readonly pool: WorkerPool<Omit<ParseRequest, 'id'>, Parsed<ParseValue>>;

  constructor(
    readonly size: number,
    readonly budgetMs: number = PARSE_BUDGET_MS,
  ) {
    this.pool = new WorkerPool<Omit<ParseRequest, 'id'>, Parsed<ParseValue>>({
      name: 'import',
      size,
      entry: workerEntry(import.meta.url, 'parse-worker'),
      // A file that makes its reader balloon kills that worker only (and is refused).
      resourceLimits: { maxOldGenerationSizeMb: 256 },
      budgetMs,
      // A few files queued in each worker: between two files it does not wait for the event loop, which
      // is busy writing the batch before and taking uploads (100 files took 70-200 ms to read, for about
      // 14 ms of reading in each worker). Their reader is synchronous, so answers come in order.
      pipeline: PARSE_PIPELINE,
      inline: async (req) => runParse(req),
      // A file over budget, or whose worker died (out of memory, say), is refused, never retried on the event loop.
      lost: { value: 'timeout' },
    });
  }

  /** Files read by workers, in-process, and stopped over budget (workers terminated). */
  get counts(): { workers: number; inline: number; timeouts: number } {
    const { workers, inline, lost } = this.pool.counts;
    return { workers, inline, timeouts: lost };
  }

  pdfFacts(bytes: Uint8Array): Promise<Parsed<PdfFacts>> {
    return this.pool.run({ kind: 'pdf', bytes: ownBuffer(bytes) }) as Promise<Parsed<PdfFacts>>;
  }

  readCfdi(bytes: Uint8Array): Promise<Parsed<CheckedCfdiRead>> {
    return this.pool.run({ kind: 'xml', bytes: ownBuffer(bytes) }) as Promise<Parsed<CheckedCfdiRead>>;
  }

  close(): Promise<void> {
    return this.pool.close();
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
