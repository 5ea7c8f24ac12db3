// WORKERS (config.ts readWorkers): how many API processes main.ts forks; several only on PostgreSQL.
import { describe, expect, it } from 'vitest';
import { readWorkers } from '../../src/server/config';

const PG = 'postgres://postgres@127.0.0.1:5432/cc';

describe('readWorkers', () => {
  it('is one process when unset or empty', () => {
    expect(readWorkers({})).toBe(1);
    expect(readWorkers({ WORKERS: ' ' })).toBe(1);
    expect(readWorkers({ WORKERS: '1' })).toBe(1);
  });

  it('takes N processes on PostgreSQL', () => {
    expect(readWorkers({ WORKERS: '4', DATABASE_URL: PG })).toBe(4);
  });

  it('refuses several processes on PGlite, saying why', () => {
    expect(() => readWorkers({ WORKERS: '2' })).toThrow('WORKERS=2 necesita PostgreSQL (DATABASE_URL): con PGlite la base de datos vive dentro de un solo proceso');
  });

  it('refuses what is not a count', () => {
    for (const bad of ['0', '-1', '2.5', 'dos', '65']) expect(() => readWorkers({ WORKERS: bad, DATABASE_URL: PG })).toThrow('WORKERS debe ser un número entero entre 1 y 64');
  });
});
