// The published coverage is the real one: README's "N / 123" equals the engine's list, every code of
// SAT's matrix is either implemented or named in README's table of rules left out, and the runtime
// catalogs are the ones the generator makes from the fixtures today.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CFDI40_RULES_IMPLEMENTED } from '../../../../src/server/cfdi/rules';
import { DOMAIN_FILE, makeSatCatalogs, RULES_FILE } from '../../../tools/make-sat-catalogs';

const README = readFileSync(fileURLToPath(new URL('../../../../README.md', import.meta.url)), 'utf8');
const MATRIX = (JSON.parse(readFileSync(fileURLToPath(new URL('../../../fixtures/catalogs/matriz-errores-cfdi40.json', import.meta.url)), 'utf8')) as {
  items: { code: string }[];
}).items.map((i) => i.code);

describe('CFDI 4.0 rule coverage', () => {
  const section = README.slice(README.indexOf('## Reglas del SAT (CFDI 4.0)'));
  const body = section.slice(0, section.indexOf('\n## ', 1));

  it('README states how many of the matrix\'s rules are implemented', () => {
    const m = /(\d+) \/ (\d+) reglas de la matriz de errores implementadas/.exec(body);
    expect(m, 'README needs "N / 123 reglas de la matriz de errores implementadas"').not.toBeNull();
    expect(Number(m![2])).toBe(MATRIX.length);
    expect(MATRIX).toHaveLength(123);
    expect(Number(m![1])).toBe(CFDI40_RULES_IMPLEMENTED.length);
  });

  it('every matrix code is implemented or listed as left out (and never both)', () => {
    const table = body.slice(body.indexOf('| code | why |'));
    const leftOut = new Set([...table.matchAll(/CFDI40\d{3}/g)].map((x) => x[0]));
    for (const code of CFDI40_RULES_IMPLEMENTED) {
      expect(MATRIX).toContain(code);
      expect(leftOut.has(code), `${code} is implemented but listed as left out`).toBe(false);
    }
    const missing = MATRIX.filter((c) => !CFDI40_RULES_IMPLEMENTED.includes(c) && !leftOut.has(c));
    expect(missing).toEqual([]);
  });

  it('the runtime catalogs are generated from the fixtures as they are', () => {
    const { domain, rules } = makeSatCatalogs();
    expect(readFileSync(DOMAIN_FILE, 'utf8')).toBe(domain);
    expect(readFileSync(RULES_FILE, 'utf8')).toBe(rules);
  });
});
