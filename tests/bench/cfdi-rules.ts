// What SAT's CFDI 4.0 rule engine (src/server/cfdi/rules) costs per CFDI on one core: checkCfdi40 from
// the bytes, as the invoicing path calls it before stamping (parse + every rule + the Sello over SAT's
// cadena with the CFDI's own certificate), and the rules alone on an already parsed document (what
// import adds after its seal check). The documents: every CFDI 4.0 fixture, round after round for a
// few seconds after a warm-up, timed in CPU microseconds (a shared machine stretches wall time, not
// CPU). Wired into run.ts's import section.
// Run: npx tsx tests/bench/cfdi-rules.ts [--seconds S]
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseSatXml } from '../../src/server/cfdi/cadena';
import { checkCfdi40 } from '../../src/server/cfdi/rules';
import { cpuUsPerDoc } from './cpu-time';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/cfdi');

export interface RulesFigures {
  files: number;
  averageBytes: number;
  findings: number;
  /** CPU microseconds per CFDI: parse, every rule, the Sello. */
  fullUs: number;
  /** CPU microseconds per CFDI: the rules on a parsed document, without the Sello. */
  rulesUs: number;
  fullPerSecond: number;
  rulesPerSecond: number;
}

export function cfdiRulesFigures(seconds = 3): RulesFigures {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.xml')).map((f) => readFileSync(resolve(FIXTURES, f), 'utf8'));
  // Only what the engine judges: CFDI 4.0 documents that parse (the rest return at once and would flatter the figure).
  const docs = files.filter((x) => {
    try {
      const root = parseSatXml(x).documentElement;
      return root?.localName === 'Comprobante' && root.getAttribute('Version') === '4.0';
    } catch {
      return false;
    }
  });
  if (docs.length === 0) throw new Error(`no CFDI 4.0 in ${FIXTURES}`);
  const bytes = docs.map((x) => new TextEncoder().encode(x));
  const now = new Date('2026-01-01T00:00:00Z');
  const findings = bytes.reduce((s, b) => s + checkCfdi40(b, { now }).length, 0);
  const parsed = docs.map((x) => parseSatXml(x));
  const fullUs = cpuUsPerDoc(bytes, seconds / 2, (b) => checkCfdi40(b, { now }));
  const rulesUs = cpuUsPerDoc(parsed, seconds / 2, (d) => checkCfdi40(d, { now, skipSeal: true }));
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    files: docs.length,
    averageBytes: Math.round(bytes.reduce((s, b) => s + b.byteLength, 0) / bytes.length),
    findings,
    fullUs: round(fullUs),
    rulesUs: round(rulesUs),
    fullPerSecond: Math.round(1e6 / fullUs),
    rulesPerSecond: Math.round(1e6 / rulesUs),
  };
}

/** The figures as run.ts reports them. */
export function cfdiRulesSection(report: (key: string, value: string | number) => void, seconds = 3): void {
  const f = cfdiRulesFigures(seconds);
  report('cfdi-rules-files', `${f.files} CFDI 4.0 (${f.averageBytes} B average, ${f.findings} findings in all)`);
  report('cfdi-rules-with-seal-us', f.fullUs);
  report('cfdi-rules-with-seal-per-s-per-core', f.fullPerSecond);
  report('cfdi-rules-only-us', f.rulesUs);
  report('cfdi-rules-only-per-s-per-core', f.rulesPerSecond);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--seconds');
  const seconds = at >= 0 ? Math.max(1, Number(process.argv[at + 1]) || 3) : 3;
  cfdiRulesSection((k, v) => console.log(`${k}: ${v}`), seconds);
}
