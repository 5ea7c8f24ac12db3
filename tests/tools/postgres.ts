// The one rule for tests that need PostgreSQL (DATABASE_URL): they run when it is set; on a developer's
// machine without it they are skipped; in CI (CI=true) without it they FAIL with a message that says so, so
// a CI machine without PostgreSQL cannot pass with the PostgreSQL half of the suites silently missing.
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

/**
 * A describe block that needs PostgreSQL. With DATABASE_URL its body runs (so it may read postgresUrl() at
 * once); without it the body is never called: the block holds one skipped test locally, one failing test in CI.
 */
export function describePostgres(name: string, body: () => void): void {
  const rule = postgresRule();
  if (rule === 'run') describe(name, body);
  else if (rule === 'skip') describe.skip(name, () => it('necesita PostgreSQL (DATABASE_URL)', () => undefined));
  else
    describe(name, () => {
      it('necesita PostgreSQL (DATABASE_URL)', () => {
        throw new Error(POSTGRES_MISSING);
      });
    });
}
