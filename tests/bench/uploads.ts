// Upload hardening benchmark (wired by run.ts as the `uploads` section), on a server process of its own:
// - one request of 100 files of 2 MB: the server's peak RSS above idle (goal < 300 MB) while it is
//   received and its files processed, and files per second (request sent → answered);
// - three such requests at once: the same figures;
// - the event-loop delay of the API while the worst hostile PDF (2 MB of '(' inside a stream, which the
//   old text scan took hours over) is processed: p99 and max of a cheap route's latency (GET
//   /meta_tags.json every 10 ms), which is event-loop delay plus a request's own small cost, and the
//   server's own event-loop delay p99 and max over that window (monitorEventLoopDelay; goal < 50 ms).
// Peak RSS is the kernel's VmHWM, reset between phases through /proc/<pid>/clear_refs.
// UPLOADS_BENCH_HOSTILE_KB sets the hostile PDF's size (default 2048); UPLOADS_BENCH_ONLY_HOSTILE=1 skips
// the 2 MB uploads (to measure an old build, whose scan of the 2 MB PDF would take hours).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEMO_USER } from '../../src/server/db/demo-accounts';
import { sized } from './scale';
import { statusEvents } from './statuses-stream';

const ROOT = resolve(import.meta.dirname, '../..');
const FILES = sized(100, 3);
/** Just under the 2 MB limit per file. */
const FILE_BYTES = sized(2 * 1024 * 1024 - 1024, 64 * 1024);
const HOSTILE_KB = Number(process.env.UPLOADS_BENCH_HOSTILE_KB ?? '') || sized(2048, 64);
const FINAL = new Set(['importado', 'duplicado', 'rechazado']);

export interface UploadsBenchDeps {
  report: (key: string, value: string | number) => void;
  freePort: () => Promise<number>;
  percentile: (values: number[], p: number) => number;
}

function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** Resets the kernel's peak RSS (VmHWM) of the process to its current RSS. */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** A PDF-looking file of `size` bytes whose body is random (no text the scan finds). */
function bulkyPdf(size: number): Uint8Array {
  const head = Buffer.from('%PDF-1.4\n% factura escaneada\n', 'latin1');
  const out = Buffer.alloc(size);
  head.copy(out);
  randomBytes(size - head.length).copy(out, head.length);
  return out;
}

/** The hostile PDF: one content stream holding nothing but '('. */
export function hostilePdf(bytes: number): Uint8Array {
  const head = `%PDF-1.4\n1 0 obj\n<< /Length ${bytes} >>\nstream\n`;
  return Buffer.from(head + '('.repeat(bytes - head.length - 30) + '\nendstream\nendobj\n%%EOF\n', 'latin1');
}

/** Follows the statuses stream until every id in `ids` has a final status. */
function untilFinal(base: string, userId: number, token: string, ids: string[]): { done: Promise<void>; stop: () => void } {
  const ctrl = new AbortController();
  const want = new Set(ids);
  const follow = async (): Promise<void> => {
    // Filtered by id where the stream takes them all (200 at most); else the whole stream, watching for
    // ours (reading every recent upload is the server's work too: kept out of the latency phase).
    const query = ids.length <= 200 ? `?${ids.map((id) => `ids[]=${id}`).join('&')}` : '';
    for await (const e of statusEvents(base, userId, token, ctrl.signal, query)) {
      if (FINAL.has(e.status)) want.delete(e.id);
      if (want.size === 0) {
        ctrl.abort();
        return;
      }
    }
  };
  const done = (async () => {
    // A server that stalls drops connections (an old build on a hostile PDF): follow the stream again.
    for (let attempt = 0; ; attempt++) {
      try {
        return await follow();
      } catch (err) {
        if (ctrl.signal.aborted || attempt >= 20) throw err;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  })();
  return { done, stop: () => ctrl.abort() };
}

async function upload(base: string, userId: number, token: string, files: { name: string; bytes: Uint8Array }[]): Promise<string[]> {
  const form = new FormData();
  for (const f of files) form.append('file', new Blob([new Uint8Array(f.bytes)], { type: 'application/pdf' }), f.name);
  const res = await fetch(`${base}/api/v3/users/${userId}/files`, { method: 'POST', headers: { 'X-Access-Token': token }, body: form });
  if (!res.ok) throw new Error(`subida: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { response: { files: { id: string; status: string }[] } };
  const refused = body.response.files.filter((f) => f.status !== 'recibido').length;
  if (refused > 0) throw new Error(`${refused} archivos rechazados al subir`);
  return body.response.files.map((f) => f.id);
}

async function withTimeout<T>(p: Promise<T>, ms: number, label: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, no) => (timer = setTimeout(() => no(new Error(`${label}: más de ${ms / 1000} s`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

export async function uploadsSection(deps: UploadsBenchDeps): Promise<void> {
  const { report } = deps;
  const dataDir = await mkdtemp(join(tmpdir(), 'cc-bench-uploads-'));
  const port = await deps.freePort();
  const base = `http://127.0.0.1:${port}`;
  const loopFile = join(dataDir, 'event-loop.json');
  const server = spawn(process.execPath, ['--import', 'tsx', '--import', './tests/bench/loop-delay.mjs', 'src/server/main.ts'], {
    cwd: ROOT,
    // Room for the 400 files of this run whatever the default quota.
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, STATIC_DIR: '', NODE_ENV: 'production', UPLOAD_QUOTA_MB: '4096', CC_BENCH_LOOP_FILE: loopFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout?.on('data', (d) => (output = (output + d).slice(-4000)));
  server.stderr?.on('data', (d) => (output = (output + d).slice(-4000)));
  const pid = server.pid!;
  try {
    const deadline = Date.now() + 180_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`el servidor terminó:\n${output}`);
      if (await fetch(`${base}/api/v3/plans.json`).then((r) => r.ok, () => false)) break;
      if (Date.now() > deadline) throw new Error(`el servidor no respondió:\n${output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const login = await fetch(`${base}/api/v2/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: { login: DEMO_USER.username, password: DEMO_USER.password } }),
    }).then((r) => r.json() as Promise<{ response: { token: string; user_id: number } }>);
    const { token, user_id: userId } = login.response;
    // Warm the upload path (and its workers) with one small file, then let the process settle.
    const warm = await upload(base, userId, token, [{ name: 'calentar.pdf', bytes: bulkyPdf(10_000) }]);
    await withTimeout(untilFinal(base, userId, token, warm).done, 60_000, 'calentar');
    await new Promise((r) => setTimeout(r, 1000));

    const files = Array.from({ length: FILES }, (_, i) => ({ name: `escaneo-${i + 1}.pdf`, bytes: bulkyPdf(FILE_BYTES) }));
    const phase = async (label: string, requests: number) => {
      const idle = memoryOf(pid).rss;
      resetPeak(pid);
      const started = performance.now();
      const ids = (await Promise.all(Array.from({ length: requests }, () => upload(base, userId, token, files)))).flat();
      const seconds = (performance.now() - started) / 1000;
      await withTimeout(untilFinal(base, userId, token, ids).done, 600_000, label);
      const mem = memoryOf(pid);
      report(`${label}-idle-rss-mb`, Math.round(idle));
      report(`${label}-peak-rss-above-idle-mb`, Math.round(mem.peak - idle));
      report(`${label}-files-per-s`, Math.round((FILES * requests) / seconds));
    };
    if (!process.env.UPLOADS_BENCH_ONLY_HOSTILE) {
      await phase('uploads-100x2mb', 1);
      await phase('uploads-3x100x2mb', 3);
    }

    // Event-loop delay while the hostile PDF is processed: a cheap route polled every 10 ms.
    const latencies: number[] = [];
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const t = performance.now();
        try {
          const res = await fetch(`${base}/meta_tags.json`, { headers: { 'X-Access-Token': token } });
          await res.arrayBuffer();
        } catch {
          // a request the server dropped counts with the time it took
        }
        latencies.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    // The server's own event-loop delay over the same window (tests/bench/loop-delay.mjs): reset now, read after.
    const loopDelay = async (): Promise<{ p99: number; max: number }> => {
      const before = Date.now();
      process.kill(pid, 'SIGUSR2');
      for (let i = 0; i < 100; i++) {
        const read = await readFile(loopFile, 'utf8').then((t) => JSON.parse(t) as { p99: number; max: number; at: number }, () => null);
        if (read && read.at >= before) return read;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('el servidor no informó el retraso de su event loop');
    };
    await loopDelay();
    const started = performance.now();
    const hostile = await upload(base, userId, token, [{ name: 'hostil.pdf', bytes: hostilePdf(HOSTILE_KB * 1024) }]);
    try {
      await withTimeout(untilFinal(base, userId, token, hostile).done, 600_000, 'PDF hostil');
    } finally {
      polling = false;
      await poll;
    }
    const loop = await loopDelay();
    report('uploads-hostile-pdf-kb', HOSTILE_KB);
    report('uploads-hostile-event-loop-delay-p99-ms', loop.p99);
    report('uploads-hostile-event-loop-delay-max-ms', loop.max);
    report('uploads-hostile-pdf-processed-s', Math.round((performance.now() - started) / 100) / 10);
    report('uploads-hostile-api-latency-p99-ms', Math.round(deps.percentile(latencies, 99)));
    report('uploads-hostile-api-latency-max-ms', Math.round(Math.max(...latencies)));
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)));
    await rm(dataDir, { recursive: true, force: true });
  }
}
