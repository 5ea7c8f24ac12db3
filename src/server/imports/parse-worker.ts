// One worker of the parse pool (parse-pool.ts): reads each untrusted file it is sent (a PDF's text facts,
// a CFDI's XML) and sends the result back; it says 'ready' once loaded, so that its start-up never counts
// against a file's time budget.
import { parentPort } from 'node:worker_threads';
import { serveWorkerJobs } from '../lib/worker-pool';
import { runParse, type ParseRequest } from './parse-task';

serveWorkerJobs<ParseRequest, ReturnType<typeof runParse>>(parentPort, runParse);
