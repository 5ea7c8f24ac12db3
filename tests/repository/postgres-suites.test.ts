// PostgreSQL-only tests follow one rule (tests/tools/postgres.ts): left out locally without DATABASE_URL
// (nothing registered in their place, stderr names them), failing in CI without it, so a CI machine
// without PostgreSQL cannot pass with those tests unseen.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { POSTGRES_LEFT_OUT, POSTGRES_MISSING, postgresRule } from '../tools/postgres';
import { REPO_ROOT, repositoryFiles } from '../tools/repository-paths';

describe('PostgreSQL-only tests', () => {
  it('run with DATABASE_URL, are skipped locally without it, and fail in CI without it', () => {
    expect(postgresRule({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' })).toBe('run');
    expect(postgresRule({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test', CI: 'true' })).toBe('run');
    expect(postgresRule({})).toBe('skip');
    expect(postgresRule({ DATABASE_URL: '', CI: 'false' })).toBe('skip');
    expect(postgresRule({ CI: 'true' })).toBe('fail');
    expect(postgresRule({ DATABASE_URL: '', CI: '1' })).toBe('fail');
  });

  it('no test file decides by itself to skip when DATABASE_URL is unset', () => {
    const own = repositoryFiles()
      .filter((f) => /^tests\/.*(\.test\.tsx?|\.e2e\.ts|\/harness\.ts)$/.test(f))
      .filter((f) => {
        const text = readFileSync(join(REPO_ROOT, f), 'utf8');
        return /process\.env\.DATABASE_URL/.test(text) && /\.(skipIf|runIf)\(|DATABASE_URL\s*\?/.test(text);
      });
    expect(own).toEqual([]);
  });

  it('in CI without DATABASE_URL the PostgreSQL bus test fails and says why', () => {
    const run = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'), 'run', 'tests/server/db/bus.test.ts', '-t', 'PostgreSQL bus'], {
      cwd: REPO_ROOT,
      env: { ...process.env, CI: 'true', DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toContain(POSTGRES_MISSING.slice(0, 60));
    expect(run.stdout + run.stderr).toMatch(/PostgreSQL bus \(LISTEN\/NOTIFY\).*necesita PostgreSQL/);
  }, 120_000);

  it('locally without DATABASE_URL the PostgreSQL bus suite registers no test at all, and stderr names it once', () => {
    const run = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'), 'run', 'tests/server/db/bus.test.ts', '--reporter=json'], {
      cwd: REPO_ROOT,
      env: { ...process.env, CI: '', DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as { numPendingTests: number; numTodoTests: number; testResults: { assertionResults: { fullName: string }[] }[] };
    const names = report.testResults.flatMap((r) => r.assertionResults.map((a) => a.fullName));
    // Only the memory bus's own tests: no skipped or empty stand-in for the PostgreSQL suite.
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => n.startsWith('memory bus (PGlite)'))).toBe(true);
    expect(report.numPendingTests + report.numTodoTests).toBe(0);
    expect(run.stderr.split(POSTGRES_LEFT_OUT).length - 1).toBe(1);
    expect(run.stderr).toContain(`${POSTGRES_LEFT_OUT} «PostgreSQL bus (LISTEN/NOTIFY)»`);
  }, 120_000);
});
