// The company expense view benchmark: a company of 500 active collaborators (in 20 departments, some
// with none) and 50,000 type-2 tickets in the month, bulk-inserted. Measures, on PGlite — or PostgreSQL when
// DATABASE_URL is set — the stats (4 SQL aggregates) and the month's ticket list (query + JSON), p95 over
// repeated runs (goal < 100 ms each), and approving 1,000 selected tickets in one call (goal < 2 s).
// `tsx tests/bench/company.ts [tickets] [collaborators]`; for run.ts: companySection({ report, percentile }).
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { asc, count, eq, inArray } from 'drizzle-orm';
import { newId } from '../../src/domain/ids';
import { MANUAL_COMPANY_ID, TICKET_TYPE } from '../../src/domain/ticket';
import { reviewTickets } from '../../src/server/company-view/review';
import { companyStats, companyTickets } from '../../src/server/company-view/queries';
import { runMigrations } from '../../src/server/db/migrate';
import { seed } from '../../src/server/seed';
import { clients, metaTags, tickets, users } from '../../src/server/db/schema';
import { collaborators, companyAreas, perDiemEvents } from '../../src/server/db/schema-company';
import { listPerDiemEvents } from '../../src/server/per-diem/events';
import { monthRange } from '../../src/domain/mexico-time';
import { openBenchDatabase } from './bench-database';
import { sized } from './scale';

export interface CompanyBench {
  driver: 'pglite' | 'pg';
  collaborators: number;
  tickets: number;
  statsP95Ms: number;
  listP95Ms: number;
  listJsonKb: number;
  /** Page 500 of 1,000 (OFFSET 24,950). */
  listDeepP95Ms: number;
  approve1000Ms: number;
  /** The per-diem list of 100 events (a third each per collaborator, department and whole company). */
  perDiemListP95Ms: number;
}

/** Nearest-rank percentile (as run.ts). */
const nearestRank = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

async function timeRuns(n: number, run: () => Promise<unknown>): Promise<number[]> {
  await run(); // warm-up (plans, caches)
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  return times;
}

export async function companyBench(nTickets = 50_000, nCollaborators = 500, percentile = nearestRank): Promise<CompanyBench> {
  const { database, drop, driver } = await openBenchDatabase();
  try {
    await runMigrations(database);
    await seed(database.db);
    const db = database.db;
    const tag = randomBytes(3).toString('hex');
    const [boss] = await db.insert(users).values({ username: `jefe${tag}`, email: `jefe${tag}@example.com`, passwordHash: 'x' }).returning({ id: users.id });
    const [company] = await db.insert(clients).values({ userId: boss!.id, rfc: 'ABC010101AB1', name: 'Bench SA', planId: 4 }).returning({ id: clients.id });
    const areas = await db
      .insert(companyAreas)
      .values(Array.from({ length: 20 }, (_, i) => ({ companyClientId: company!.id, area: `Departamento ${i + 1}` })))
      .returning({ id: companyAreas.id });
    const us = await db
      .insert(users)
      .values(Array.from({ length: nCollaborators }, (_, k) => ({ username: `colab${tag}${k}`, email: `colab${tag}${k}@example.com`, passwordHash: 'x' })))
      .returning({ id: users.id });
    const cs = await db
      .insert(clients)
      .values(us.map((u, k) => ({ userId: u.id, rfc: `GOMA800101${String(k).padStart(3, '0').slice(-3)}`, firstName: 'Ana', lastName: 'López', planId: 1 })))
      .returning({ id: clients.id, userId: clients.userId });
    const members = await db.insert(collaborators).values(
      cs.map((c, k) => ({
        companyClientId: company!.id,
        email: `colab${tag}${k}@example.com`,
        firstName: 'Ana',
        lastName: 'López',
        // Every 10th collaborator has no department ('Otros').
        areaId: k % 10 === 9 ? null : areas[k % areas.length]!.id,
        status: 'activo',
        userId: c.userId,
        clientId: c.id,
        acceptedAt: new Date(),
      })),
    ).returning({ id: collaborators.id });
    const tags = (await db.select({ id: metaTags.id }).from(metaTags).orderBy(asc(metaTags.id))).map((t) => t.id);
    const year = 2026;
    const month = 3;
    const { from, to } = monthRange(year, month);
    const span = to.getTime() - from.getTime();
    const ids: string[] = [];
    for (let i = 0; i < nTickets; i += 1_000) {
      const size = Math.min(1_000, nTickets - i);
      const rows = Array.from({ length: size }, (_, k) => {
        const n = i + k;
        const owner = cs[n % cs.length]!;
        const id = newId();
        ids.push(id);
        return {
          id,
          userId: owner.userId,
          clientId: owner.id,
          type: TICKET_TYPE.expense,
          // 40 % already approved (the stats read those), the rest 'no facturable'.
          statusId: n % 5 < 2 ? 6 : 3,
          companyId: MANUAL_COMPANY_ID,
          amount: (((n * 7919) % 200_000) / 100 + 1).toFixed(2),
          receivedAt: new Date(from.getTime() + ((n * 104_729) % span)),
          metaTagId: tags.length ? tags[n % tags.length]! : null,
        };
      });
      await db.insert(tickets).values(rows);
    }
    await database.db.execute('ANALYZE');

    const stats = await timeRuns(20, () => companyStats(db, company!.id, year, month));
    // The list is paged (50 a page, newest first): the first page and one deep in the month.
    let jsonBytes = 0;
    let total = 0;
    const list = await timeRuns(20, async () => {
      const found = await companyTickets(db, company!.id, year, month, 1, 50);
      total = found.total;
      jsonBytes = JSON.stringify({ response: found }).length;
    });
    const deep = await timeRuns(10, () => companyTickets(db, company!.id, year, month, 500, 50));
    // 100 per-diem events of 1-3 days across the month; their live spending is read for the whole list.
    await db.insert(perDiemEvents).values(
      Array.from({ length: 100 }, (_, k) => {
        const day = 1 + (k % 26);
        const ymd = (d: number) => `${year}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
        return {
          companyClientId: company!.id,
          eventName: `Evento ${k + 1}`,
          startDate: ymd(day),
          endDate: ymd(day + (k % 3)),
          collaboratorId: k % 3 === 0 ? members[k % members.length]!.id : null,
          areaId: k % 3 === 1 ? areas[k % areas.length]!.id : null,
          deposit: '5000.00',
          notes: '',
          createdAt: new Date(),
        };
      }),
    );
    let events = 0;
    const perDiem = await timeRuns(10, async () => {
      events = (await listPerDiemEvents(db, company!.id)).length;
    });
    if (events !== 100) throw new Error(`esperaba 100 eventos de viáticos, hubo ${events}`);
    if (total !== nTickets) throw new Error(`esperaba ${nTickets} tickets en la lista, hubo ${total}`);
    // 1,000 tickets not yet reviewed (statusId 3), chosen as the manager would select them.
    const pending = ids.filter((_, n) => n % 5 >= 2).slice(0, 1_000);
    const t0 = performance.now();
    const changed = await reviewTickets(db, { companyClientId: company!.id, reviewerId: boss!.id, ticketIds: pending, decision: 'aprobado', reason: null, now: new Date() });
    const approveMs = performance.now() - t0;
    const [approved] = await db.select({ n: count() }).from(tickets).where(inArray(tickets.id, pending));
    const [check] = await db.select({ n: count() }).from(tickets).where(eq(tickets.statusId, 6));
    if (changed !== 1_000 || approved?.n !== 1_000 || (check?.n ?? 0) < 1_000) throw new Error(`esperaba 1000 aprobados, hubo ${changed}`);
    const r1 = (x: number) => Math.round(x * 10) / 10;
    return {
      driver,
      collaborators: nCollaborators,
      tickets: nTickets,
      statsP95Ms: r1(percentile(stats, 95)),
      listP95Ms: r1(percentile(list, 95)),
      listJsonKb: Math.round(jsonBytes / 1024),
      listDeepP95Ms: r1(percentile(deep, 95)),
      approve1000Ms: r1(approveMs),
      perDiemListP95Ms: r1(percentile(perDiem, 95)),
    };
  } finally {
    await database.close();
    await drop();
  }
}

/** For run.ts (section 'company'): `companySection({ report, percentile })`. */
export async function companySection(deps: { report: (key: string, value: string | number) => void; percentile?: (values: number[], p: number) => number }): Promise<void> {
  // The smoke's 2,000 tickets still leave the 1,000 unreviewed ones the approval takes.
  const r = await companyBench(sized(50_000, 2_000), sized(500, 20), deps.percentile ?? nearestRank);
  deps.report(`company-stats-${r.driver}-p95-ms`, r.statsP95Ms);
  deps.report(`company-list-${r.driver}-p95-ms`, r.listP95Ms);
  deps.report(`company-list-${r.driver}-json-kb`, r.listJsonKb);
  deps.report(`company-list-page500-${r.driver}-p95-ms`, r.listDeepP95Ms);
  deps.report(`company-approve-1000-${r.driver}-ms`, r.approve1000Ms);
  deps.report(`per-diem-list-100-${r.driver}-p95-ms`, r.perDiemListP95Ms);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await companyBench(Number(process.argv[2] ?? 50_000), Number(process.argv[3] ?? 500));
  console.log(JSON.stringify(r));
  const verdict = (ok: boolean) => (ok ? 'OK' : 'LENTO');
  console.log(`${verdict(r.statsP95Ms < 100)}: estadísticas p95 ${r.statsP95Ms} ms (meta < 100 ms)`);
  console.log(`${verdict(r.listP95Ms < 100)}: lista del mes (página 1 de 50) p95 ${r.listP95Ms} ms, ${r.listJsonKb} KB (meta < 100 ms)`);
  console.log(`${verdict(r.listDeepP95Ms < 100)}: lista del mes (página 500) p95 ${r.listDeepP95Ms} ms (meta < 100 ms)`);
  console.log(`${verdict(r.approve1000Ms < 2000)}: aprobar 1,000 en ${r.approve1000Ms} ms (meta < 2 s)`);
  console.log(`${verdict(r.perDiemListP95Ms < 100)}: viáticos, lista de 100 eventos p95 ${r.perDiemListP95Ms} ms (meta < 100 ms)`);
}
