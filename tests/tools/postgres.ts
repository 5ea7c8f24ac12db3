// The one rule for tests that need PostgreSQL (DATABASE_URL): they run when it is set; on a developer's
// machine without it they are left out (no test is registered for them, since a test that asserts nothing
// would count as one, and stderr says once which suites were left out); in CI (CI=true) without it they
// FAIL with a message that says so, so a CI machine without PostgreSQL cannot pass with the PostgreSQL half
// of the suites silently missing.
// Used by the API harness (its 'pg' driver), the PostgreSQL bus test and the multi-process e2e test.
import { describe, it } from 'vitest';

export type PostgresRule = 'run' | 'skip' | 'fail';

export const POSTGRES_MISSING =
  'Estas pruebas necesitan PostgreSQL y en CI (CI=true) no se omiten: define DATABASE_URL (p. ej. postgres://postgres@127.0.0.1:5432/test), como hace .ci/run cuando hay un servidor en 127.0.0.1:5432.';

function isCi(env: NodeJS.ProcessEnv): boolean {
  const ci = (env.CI ?? '').trim().toLowerCase();
  return ci !== '' && ci !== 'false' && ci !== '0';
}

/** What a PostgreSQL-only test does under these environment variables. */
export function postgresRule(env: NodeJS.ProcessEnv = process.env): PostgresRule {
  if (env.DATABASE_URL) return 'run';
  return isCi(env) ? 'fail' : 'skip';
}

/** The PostgreSQL server's URL (DATABASE_URL); throws the clear message when there is none. */
export function postgresUrl(env: NodeJS.ProcessEnv = process.env): string {
  if (!env.DATABASE_URL) throw new Error(POSTGRES_MISSING);
  return env.DATABASE_URL;
}

/** The start of the line describePostgres writes to stderr when it leaves suites out. */
export const POSTGRES_LEFT_OUT = 'Sin DATABASE_URL no corren estas pruebas, que necesitan PostgreSQL:';

const leftOut: string[] = [];

/**
 * Names a suite left out for want of PostgreSQL. The names given while the test file is being read
 * (describePostgres at its top level, or inside one describe body) are written together, in one line.
 */
function noteLeftOut(name: string): void {
  leftOut.push(name);
  if (leftOut.length > 1) return;
  queueMicrotask(() => {
    process.stderr.write(`${POSTGRES_LEFT_OUT} ${leftOut.map((n) => `«${n}»`).join(', ')}\n`);
    leftOut.length = 0;
  });
}

/**
 * A describe block that needs PostgreSQL. With DATABASE_URL its body runs (so it may read postgresUrl() at
 * once); without it the body is never called: locally nothing is registered (stderr names the suite), in CI
 * the block holds one failing test that says why.
 */
export function describePostgres(name: string, body: () => void): void {
  const rule = postgresRule();
  if (rule === 'run') describe(name, body);
  else if (rule === 'skip') noteLeftOut(name);
  else
    describe(name, () => {
      it('necesita PostgreSQL (DATABASE_URL)', () => {
        throw new Error(POSTGRES_MISSING);
      });
    });
}
