// One worker of the PDF pool (pdf-pool.ts): renders each CFDI it is sent and sends the bytes back.
import { parentPort } from 'node:worker_threads';
import { serveWorkerJobs } from '../lib/worker-pool';
import { renderPdfInline, type PdfJob } from './pdf-pool';

// The bytes are moved, not copied, when they own their buffer; a view into a shared pool is copied.
const own = (pdf: Uint8Array) => (pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? [pdf.buffer as ArrayBuffer] : []);

serveWorkerJobs<PdfJob, Uint8Array>(parentPort, (job) => renderPdfInline(job.xml, job.options), own);
