// The worker pool with several jobs handed to one worker (`pipeline`): answers in order, each job's budget
// counted from when the worker takes it, and a job over budget costs only itself (those queued behind it
// are read by a fresh worker). The worker is a tiny module that spends the time each job asks for.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../../src/server/lib/worker-pool';

interface Spend {
  ms: number;
  value: string;
  /** Answer when the worker received the job (epoch ms) instead of `value`. */
  stamp?: boolean;
}

let dir: string;
let entry: URL;
let pool: WorkerPool<Spend, string> | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cc-pool-'));
  const file = join(dir, 'spend-worker.mjs');
  // The pool's protocol (lib/worker-pool.ts serveWorkerJobs): 'ready', then {id, value} per job, in order.
  writeFileSync(
    file,
    `import { parentPort } from 'node:worker_threads';
parentPort.on('message', (msg) => {
  const received = Date.now();
  while (Date.now() < received + msg.ms) {}
  parentPort.postMessage({ id: msg.id, value: msg.stamp ? String(received) : msg.value });
});
parentPort.postMessage({ ready: true });
`,
  );
  entry = pathToFileURL(file);
});
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function makePool(budgetMs: number, pipeline: number): WorkerPool<Spend, string> {
  pool = new WorkerPool<Spend, string>({
    name: 'prueba',
    size: 1,
    entry,
    budgetMs,
    pipeline,
    inline: async (req) => `en proceso ${req.value}`,
    lost: { value: 'tiempo agotado' },
  });
  return pool;
}

describe('WorkerPool with a pipeline', () => {
  it('answers every job, in order, when several wait in one worker', async () => {
    const p = makePool(5_000, 4);
    const values = Array.from({ length: 10 }, (_, i) => `archivo ${i}`);
    expect(await Promise.all(values.map((value) => p.run({ ms: 5, value })))).toEqual(values);
    expect(p.counts).toEqual({ workers: 10, inline: 0, lost: 0 });
  });

  it('hands the next jobs over at once, so the worker goes on while the event loop is busy', async () => {
    const p = makePool(5_000, 4);
    await p.run({ ms: 0, value: 'arranque' }); // the worker is up
    const answers = [0, 1, 2].map(() => p.run({ ms: 10, value: '', stamp: true }));
    // The event loop is busy for 300 ms (a batch being written, say): it answers nothing meanwhile.
    const busyUntil = Date.now() + 300;
    while (Date.now() < busyUntil) {
      // busy
    }
    const received = (await Promise.all(answers)).map(Number);
    // All three reached the worker before the loop was free (one at a time, the second would have waited).
    expect(Math.max(...received)).toBeLessThan(busyUntil);
  });

  it('counts each budget from when the worker takes the job, not from when it was handed over', async () => {
    // Four jobs of 300 ms each on one worker: the last one is taken 900 ms after it was handed over,
    // far past a 600 ms budget counted from then, and well within one counted from when it starts.
    const p = makePool(600, 4);
    const answers = await Promise.all([0, 1, 2, 3].map((i) => p.run({ ms: 300, value: `archivo ${i}` })));
    expect(answers).toEqual(['archivo 0', 'archivo 1', 'archivo 2', 'archivo 3']);
    expect(p.counts.lost).toBe(0);
  });

  it('a job over budget is lost alone: the jobs queued behind it go to a fresh worker', async () => {
    const p = makePool(400, 4);
    const answers = await Promise.all([
      p.run({ ms: 10, value: 'antes' }),
      p.run({ ms: 5_000, value: 'atascado' }),
      p.run({ ms: 10, value: 'detrás 1' }),
      p.run({ ms: 10, value: 'detrás 2' }),
    ]);
    expect(answers).toEqual(['antes', 'tiempo agotado', 'detrás 1', 'detrás 2']);
    expect(p.counts).toEqual({ workers: 3, inline: 0, lost: 1 });
  });
});

describe('WorkerPool.close', () => {
  it('rejects the jobs running, handed over and waiting, and any job asked for after it', async () => {
    pool = new WorkerPool<Spend, string>({
      name: 'prueba',
      size: 1,
      entry,
      budgetMs: 5_000,
      pipeline: 2,
      inline: async (req) => `en proceso ${req.value}`,
      lost: { value: 'tiempo agotado' },
    });
    const p = pool;
    // One running, one handed over to the worker, two waiting in the pool's queue.
    const jobs = ['a', 'b', 'c', 'd'].map((value) => p.run({ ms: 2_000, value }).then((v) => v, (err: Error) => err.message));
    await new Promise((r) => setTimeout(r, 300)); // the worker has started and taken its two
    await p.close();
    expect(await Promise.all(jobs)).toEqual(['prueba: cerrado', 'prueba: cerrado', 'prueba: cerrado', 'prueba: cerrado']);
    await expect(p.run({ ms: 0, value: 'e' })).rejects.toThrow('prueba: cerrado');
  });
});
