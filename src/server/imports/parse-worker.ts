// One worker of the parse pool (parse-pool.ts): reads each untrusted file it is sent (a PDF's text facts,
// a CFDI's XML) and sends the result back. It says 'ready' once loaded, so that its start-up never counts
// against a file's time budget.
import { parentPort } from 'node:worker_threads';
import { runParse, type ParseRequest } from './parse-task';

parentPort?.on('message', (msg: ParseRequest) => {
  try {
    parentPort?.postMessage({ id: msg.id, value: runParse(msg) });
  } catch (err) {
    parentPort?.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) });
  }
});
parentPort?.postMessage({ ready: true });
