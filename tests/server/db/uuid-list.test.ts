// inUuids (db/uuid-list.ts): a list of UUIDs as one parameter; anything else refused before SQL.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PgDialect } from 'drizzle-orm/pg-core';
import { uploads } from '../../../src/server/db/schema';
import { inUuids, isUuid } from '../../../src/server/db/uuid-list';

describe('inUuids', () => {
  const dialect = new PgDialect();
  it('sends the ids as one text parameter', () => {
    const ids = [randomUUID(), randomUUID().toUpperCase()];
    const q = dialect.sqlToQuery(inUuids(uploads.id, ids));
    expect(q.sql).toBe(`"uploads"."id" = ANY(string_to_array($1, ',')::uuid[])`);
    expect(q.params).toEqual([ids.join(',')]);
  });
  it('matches nothing for no ids', () => {
    expect(dialect.sqlToQuery(inUuids(uploads.id, [])).sql).toBe('false');
  });
  it('refuses what is not a UUID (a comma would split a value in two)', () => {
    for (const bad of ['-'.repeat(36), `${randomUUID()},${randomUUID()}`, "x' OR '1'='1", '']) {
      expect(isUuid(bad)).toBe(false);
      expect(() => inUuids(uploads.id, [randomUUID(), bad])).toThrow(/uuid no válido/);
    }
  });
});
