import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import { startBoss } from '../../../src/server/jobs/boss';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

describe.each(DRIVERS)('pg-boss on %s', (driver) => {
  let h: Harness;
  let boss: PgBoss | undefined;
  beforeAll(async () => {
    h = await createHarness(driver);
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, wait: true });
    await h?.close();
  });

  it('creates its schema on the app database and runs a job through a worker', async () => {
    boss = await startBoss(h.database, { supervise: false });
    await boss.createQueue('prueba');
    const done = new Promise<unknown>((resolve) => {
      void boss?.work<{ saludo: string }>('prueba', { pollingIntervalSeconds: 0.5 }, async ([job]) => {
        resolve(job?.data);
      });
    });
    const id = await boss.send('prueba', { saludo: 'hola' });
    expect(id).toEqual(expect.any(String));
    expect(await done).toEqual({ saludo: 'hola' });
    const { rows } = await h.database.sql.executeSql("SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'prueba'", []);
    expect((rows[0] as { n: number }).n).toBe(1);
  }, 60_000);
});
