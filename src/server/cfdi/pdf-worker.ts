// One worker of the PDF pool (pdf-pool.ts): renders each CFDI it is sent and sends the bytes back.
import { parentPort } from 'node:worker_threads';
import type { RenderOptions } from './pdf';
import { renderPdfInline } from './pdf-pool';

parentPort?.on('message', (msg: { xml: Uint8Array; options: RenderOptions }) => {
  renderPdfInline(msg.xml, msg.options).then(
    (pdf) => {
      // Transfer the bytes when they own their buffer (no copy); a view into a shared pool is copied.
      const own = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength;
      parentPort?.postMessage({ pdf }, own ? [pdf.buffer as ArrayBuffer] : []);
    },
    (err: unknown) => parentPort?.postMessage({ error: err instanceof Error ? err.message : String(err) }),
  );
});
