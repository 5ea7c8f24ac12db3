// PGlite's planner has statistics only when the server gathers them at start (it has no autovacuum).
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/server/db/client';
import { analyzePglite, runMigrations } from '../../../src/server/db/migrate';

describe('analyzePglite', () => {
  it('gathers the planner statistics of every table on PGlite', async () => {
    const database = await createDb({});
    try {
      await runMigrations(database);
      const analyzed = async () =>
        (await database.pglite!.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_user_tables WHERE relname = 'tickets' AND last_analyze IS NOT NULL")).rows[0]?.n;
      expect(await analyzed()).toBe(0);
      await analyzePglite(database);
      expect(await analyzed()).toBe(1);
    } finally {
      await database.close();
    }
  });
});
