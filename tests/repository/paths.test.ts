// The repository tests itself (DESIGN §6): no file of it names a path outside it, so a clone with nothing
// beside it runs `npm test`. The probes show the check catches both kinds of leak; their paths are put
// together from pieces, so this file names none itself.
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, leaksIn, repositoryFiles, repositoryLeaks } from '../tools/repository-paths';

const path = (...parts: string[]) => parts.join('/');
const quoted = (p: string) => `'${p}'`;
const UP = '..';

describe('paths that leave the repository', () => {
  it('no code, test, script or configuration file names one', () => {
    expect(repositoryFiles()).toEqual(expect.arrayContaining(['package.json', 'vite.config.ts', '.ci/run', 'tests/tools/repository-paths.ts']));
    expect(repositoryLeaks()).toEqual([]);
  });

  it('probe: a relative path climbing above the root, and the old workspace\'s fixtures, are caught', () => {
    const leaks = leaksIn(
      [
        `import x from ${quoted(path(UP, UP, UP, 'elsewhere', 'x'))};`,
        `const a = new URL(${quoted(path(UP, UP, UP, 'shared', 'fixtures', 'cfdi'))}, import.meta.url);`,
        `const b = resolve(ROOT, ${quoted(path(UP, 'shared', 'spec', 'product-spec.md'))});`,
        `const c = ${quoted(path(UP, UP, UP, 'up', 'factura.xml'))};`,
      ].join('\n'),
      'tests/server/probe.ts',
      '/repo',
    );
    expect(leaks.map((l) => [l.line, l.why])).toEqual([
      [1, 'sale del repositorio'],
      [2, 'sale del repositorio'],
      [4, 'sale del repositorio'],
      [2, 'apunta al espacio de trabajo de fuera (shared/…)'],
      [3, 'apunta al espacio de trabajo de fuera (shared/…)'],
    ]);
  });

  it('probe: paths inside the repository pass, a folder of ours called shared too', () => {
    expect(
      leaksIn(
        [
          `import { a } from ${quoted(path(UP, 'shared', 'fields-loading'))};`,
          `const f = new URL(${quoted(path(UP, UP, 'fixtures', 'cfdi'))}, import.meta.url);`,
          `const r = resolve(import.meta.dirname, ${quoted(path(UP, UP))});`,
          "const route = '/dev/mailbox';",
        ].join('\n'),
        'tests/server/cfdi/probe.ts',
        '/repo',
      ),
    ).toEqual([]);
  });

  it('probe: lint refuses such a path in code', async () => {
    const eslint = new ESLint({ cwd: REPO_ROOT, overrideConfigFile: join(REPO_ROOT, '.config/eslint.config.js') });
    const text = `export const fixture = new URL(${quoted(path(UP, UP, UP, UP, 'shared', 'fixtures', 'cfdi'))}, import.meta.url);\n`;
    const [result] = await eslint.lintText(text, { filePath: join(REPO_ROOT, 'tests/server/cfdi/probe.ts') });
    expect(result!.messages.filter((m) => m.ruleId === 'local/repository-paths').map((m) => m.line)).toEqual([1, 1]);
  });
});
