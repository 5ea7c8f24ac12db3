// A caught error's log line says what failed and where, never the values: no message, no detail, no params.
import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { errorSummary, isDatabaseError } from '../../../src/server/lib/error-summary';

const SECRET = 'contraseña-de-Emma-123';

function pgError(): Error {
  return Object.assign(new Error(`invalid input syntax for type integer: "${SECRET}"`), {
    severity: 'ERROR',
    code: '22P02',
    detail: `Failing row contains (${SECRET})`,
    routine: 'pg_strtoint32_safe',
  });
}

describe('errorSummary', () => {
  it("keeps a failed query's class, SQLSTATE and frames, and drops its SQL, parameters, message and detail", () => {
    const err = new DrizzleQueryError('insert into "users" ("password") values ($1)', [SECRET], pgError());
    const line = errorSummary(err);
    expect(line).toMatch(/^DrizzleQueryError causa Error code=22P02 routine=pg_strtoint32_safe \| at /);
    expect(line).not.toContain(SECRET);
    expect(line).not.toMatch(/insert|params|Failing/);
    expect(isDatabaseError(err)).toBe(true);
    expect(isDatabaseError(pgError())).toBe(true);
  });

  it('drops a message even when it imitates stack frames', () => {
    const err = new TypeError(`no se pudo\n    at ${SECRET} (/x.ts:1:1)`);
    const line = errorSummary(err);
    expect(line).toMatch(/^TypeError \| at /);
    expect(line).not.toContain(SECRET);
    expect(isDatabaseError(err)).toBe(false);
  });

  it('names what is not an Error by its type only', () => {
    expect(errorSummary(SECRET)).toBe('(string)');
    expect(errorSummary({ message: SECRET })).toBe('(object)');
  });
});
