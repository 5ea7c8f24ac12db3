// PAC adapter benchmark: invoices stamped per second through the Finkok adapter (SOAP over HTTP, the
// answer's XML read back and checked) against the local fake of Finkok's services
// (tests/server/cfdi/finkok-fake.ts), which really stamps them (SAT's rules, seal check, timbre). Goal ≥ 100/s.
// The documents are sealed beforehand (each distinct: its own folio), so the figure is the stamping path:
// envelope, HTTP, the fake's work, reading the answer. The fake runs in a child process (this file with
// --serve-fake), as Finkok would be another machine. Prints "pac-finkok-stamps-per-s" (wall clock),
// "pac-finkok-stamps-per-cpu-s" (per second of the adapter process's CPU: steadier on a shared machine),
// the concurrency and the p95 per stamp.
// Run: npx tsx tests/bench/pac.ts [--n N]
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FinkokPac } from '../../src/server/cfdi/finkok-pac';
import { openTestCsd, sealCfdi } from '../../src/server/cfdi/seal';
import { startFakeFinkok } from '../server/cfdi/finkok-fake';
import { sampleInput } from '../server/cfdi/sat-tools';

const ACCOUNT = { username: 'bench@example.com', password: 'bench' };
/** sampleInput's Fecha (2026-05-01T12:00:00 in 42501) plus a minute: the fake's frozen clock. */
const START = new Date('2026-05-01T18:01:00Z');
/** Stamps in flight at once, as several invoice jobs would send them. */
const CONCURRENCY = 8;

export interface PacBench {
  perSecond: number;
  /** Per second of this process's CPU time (the adapter's; the fake runs in a child): steadier on a shared machine. */
  perCpuSecond: number;
  n: number;
  p95Ms: number;
}

/** The fake in a child process of its own (this file with --serve-fake), so this process's CPU is the adapter's. */
async function fakeInChild(): Promise<{ url: string; stamped: () => Promise<number>; close: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve-fake'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  const next = () => new Promise<string>((resolve) => waiting.push(resolve));
  const url = await next();
  return {
    url,
    stamped: async () => {
      const answer = next();
      child.stdin!.write('count\n');
      return Number(await answer);
    },
    close: async () => {
      child.stdin!.end();
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** --serve-fake: the fake on a free port; prints its URL, answers "count" with the stamps made, ends with stdin. */
async function serveFake(): Promise<void> {
  const fake = await startFakeFinkok(ACCOUNT, START);
  console.log(fake.url);
  const lines = createInterface({ input: process.stdin });
  lines.on('line', () => console.log(fake.stampCount()));
  lines.on('close', () => void fake.close().then(() => process.exit(0)));
}

export async function finkokStampsPerSecond(n = 600): Promise<PacBench> {
  const fake = await fakeInChild();
  try {
    const csd = openTestCsd('EKU9003173C9');
    const pac = new FinkokPac({ ...ACCOUNT, url: fake.url, csdOf: async () => csd, now: () => START });
    const docs = Array.from({ length: n }, (_, i) => sealCfdi(sampleInput({ folio: `B${i}-${Date.now()}` }), csd).xml);
    await pac.stamp(sealCfdi(sampleInput({ folio: `warm-${Date.now()}` }), csd).xml);
    const times: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < docs.length) {
        const doc = docs[next++]!;
        const t = performance.now();
        await pac.stamp(doc);
        times.push(performance.now() - t);
      }
    };
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    const stamped = await fake.stamped();
    if (stamped !== n + 1) throw new Error(`fake Finkok stamped ${stamped} documents for ${n + 1}`);
    times.sort((a, b) => a - b);
    return { perSecond: Math.round(n / seconds), perCpuSecond: Math.round(n / cpuSeconds), n, p95Ms: Math.round(times[Math.ceil(0.95 * times.length) - 1]! * 10) / 10 };
  } finally {
    await fake.close();
  }
}

export async function pacSection(deps: { report: (key: string, value: string | number) => void; n?: number }): Promise<void> {
  const r = await finkokStampsPerSecond(deps.n);
  deps.report('pac-finkok-stamps-per-s', r.perSecond);
  deps.report('pac-finkok-stamps-per-cpu-s', r.perCpuSecond);
  deps.report('pac-finkok-stamps', r.n);
  deps.report('pac-finkok-concurrency', CONCURRENCY);
  deps.report('pac-finkok-p95-ms', r.p95Ms);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.argv.includes('--serve-fake')) {
  await serveFake();
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--n');
  const n = at >= 0 ? Math.max(1, Number(process.argv[at + 1]) || 600) : 600;
  await pacSection({ report: (k, v) => console.log(`${k}: ${v}`), n });
}
