// Parse-only throughput of readCfdi (goal ≥ 5,000 CFDI/s on one core): every
// fixture CFDI it accepts, round after round for a few seconds on this one thread, after a warm-up.
// Prints "cfdi-parse-per-s: N". Run: npx tsx tests/bench/cfdi-parse.ts [--seconds S]
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readCfdi } from '../../src/server/cfdi/read';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/cfdi');

export function cfdiParsePerSecond(seconds = 3): { perSecond: number; files: number; bytes: number } {
  const docs = readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.xml'))
    .map((f) => new Uint8Array(readFileSync(resolve(FIXTURES, f))))
    .filter((b) => readCfdi(b).ok);
  if (docs.length === 0) throw new Error(`no CFDI accepted in ${FIXTURES}`);
  const warmUntil = performance.now() + 500;
  while (performance.now() < warmUntil) for (const d of docs) readCfdi(d);
  let parsed = 0;
  const start = performance.now();
  const until = start + seconds * 1000;
  while (performance.now() < until) {
    for (const d of docs) {
      if (!readCfdi(d).ok) throw new Error('a fixture stopped parsing');
      parsed++;
    }
  }
  const elapsed = (performance.now() - start) / 1000;
  return { perSecond: Math.round(parsed / elapsed), files: docs.length, bytes: docs.reduce((s, d) => s + d.byteLength, 0) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--seconds');
  const seconds = at >= 0 ? Math.max(1, Number(process.argv[at + 1]) || 3) : 3;
  const r = cfdiParsePerSecond(seconds);
  console.log(`cfdi-parse-per-s: ${r.perSecond}`);
  console.log(`cfdi-parse-fixtures: ${r.files} (${Math.round(r.bytes / r.files)} B average)`);
}
