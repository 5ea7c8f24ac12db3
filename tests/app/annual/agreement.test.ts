// The annual view and the dashboard card show the server's numbers online and the device's offline:
// both must agree. The real API (PGlite) holds a year of tickets; the real pull copies them into Dexie
// (fake-indexeddb); the device figures are then compared with the stats and analytics answers.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriesFromStats, analyticsPath, statsPath, type StatsAnswer } from '../../../src/app/annual/annual-model';
import { deviceMonthSpending, deviceYearFigures } from '../../../src/app/tickets/device-analytics';
import { spendingSummary, type SpendingAnswer } from '../../../src/app/tickets/spending-summary-model';
import type { LabelValue } from '../../../src/domain/analytics';
import { createDb, type AppDb } from '../../../src/offline/db';
import { pullMonth, pullYear } from '../../../src/offline/pull';
import { createHttp, type Http } from '../../../src/offline/http';
import { companies, tickets } from '../../../src/server/db/schema';
import { createHarness, type Harness } from '../../server/helpers/harness';
import { createEntry, income, ownerWithRfc, spending, type Owner } from '../../server/tickets/ticket-fixtures';

let h: Harness;
let owner: Owner;
let api: Http;
let names: Map<string, string>;

const byLabel = (list: readonly LabelValue[]) => [...list].sort((a, b) => (a.label < b.label ? -1 : 1));

async function add(form: Parameters<typeof createEntry>[2]): Promise<string> {
  const r = await createEntry(h, owner, form);
  if (r.status !== 200) throw new Error(`ticket_create: ${r.text}`);
  return r.id;
}

async function freshDb(): Promise<AppDb> {
  const db = createDb(`agreement-${Math.random()}`);
  await db.open();
  return db;
}

beforeAll(async () => {
  h = await createHarness('pglite');
  owner = await ownerWithRfc(h, 'GODE561231GR8');
  api = createHttp({ fetch: (req) => Promise.resolve(h.app.request(req)), getToken: () => owner.token, baseUrl: 'http://localhost' });
  const db = h.database.db;
  await db.insert(companies).values({ id: 901, shortName: 'oxxo', name: 'OXXO', logo: '' });

  // 2025: the previous year of the comparison.
  await add(spending({ amount: '80', date: '2025/02/10', category: '1' }));
  await add(spending({ amount: '120.40', date: '2025/07/01', category: '4' }));
  const oxxo2025 = await add(spending({ amount: '33.30', date: '2025/12/24', category: '1' }));
  // 2026: nine categories and two venues, so there is an 'Otros' slice.
  const ids: string[] = [];
  for (let c = 1; c <= 9; c++) ids.push(await add(spending({ amount: `${(c * 37.15).toFixed(2)}`, date: `2026/${String(c).padStart(2, '0')}/0${c}`, category: String(c) })));
  await add(spending({ amount: '0.10', date: '2026/10/31', category: '1' }));
  await add(spending({ amount: '0.20', date: '2026/10/31', category: '1' }));
  const lateNight = await add(spending({ amount: '70', date: '2026/11/20', category: '3' }));
  const untagged = await add(spending({ amount: '10', date: '2026/11/03', category: '2' }));
  await add(income({ amount: '5000', date: '2026/10/15', category: '2' }));
  const typeThree = await add(income({ amount: '250.50', date: '2026/11/06', category: '1' }));
  await db.update(tickets).set({ companyId: 901 }).where(eq(tickets.id, ids[0]!));
  await db.update(tickets).set({ companyId: 901 }).where(eq(tickets.id, ids[4]!));
  await db.update(tickets).set({ companyId: 901 }).where(eq(tickets.id, oxxo2025));
  await db.update(tickets).set({ metaTagId: null }).where(eq(tickets.id, untagged));
  await db.update(tickets).set({ type: 3 }).where(eq(tickets.id, typeThree));
  // 21:00 on 30 November in Mexico City is already 1 December in UTC: November on both sides.
  await db.update(tickets).set({ receivedAt: new Date('2026-12-01T03:00:00Z') }).where(eq(tickets.id, lateNight));

  const list = await api.get<{ short_name: string; name: string }[]>('/company/all.json');
  names = new Map(list.map((c) => [c.short_name, c.name]));
});

afterAll(async () => h?.close());

describe('device figures agree with the server', () => {
  it('for a year pulled whole, with the previous year pulled too', async () => {
    const db = await freshDb();
    await pullYear(db, api, owner.rfc, 2026);
    await pullYear(db, api, owner.rfc, 2025);
    const device = await deviceYearFigures(db, owner.rfc, 2026, names);
    const stats = await api.get<{ stats: StatsAnswer }>(statsPath(owner.rfc, 2026));
    const analytics = await api.get<SpendingAnswer>(analyticsPath(owner.rfc, 2026));

    expect(device).not.toBeNull();
    expect(device!.series).toEqual(seriesFromStats(stats.stats, 2026));
    expect(device!.series.spending[10]).toBe(80); // 70 + 10, the late-night one included
    expect(device!.series.income[10]).toBe(250.5);
    for (const side of ['current', 'past'] as const) {
      expect(byLabel(device![side]!.venues)).toEqual(byLabel(analytics[side].venues));
      expect(byLabel(device![side]!.categories)).toEqual(byLabel(analytics[side].categories));
    }
    const shown = spendingSummary(device!);
    expect(shown).toEqual(spendingSummary(analytics));
    expect(shown?.donut.map((s) => s.label)).toContain('Otros');
    expect(shown?.venues.find((v) => v.label === 'OXXO')).toMatchObject({ change: expect.any(Number), trend: expect.any(String) });
    db.close();
  });

  it('for a month, against the month before', async () => {
    const db = await freshDb();
    await pullMonth(db, api, owner.rfc, 2026, 11);
    await pullMonth(db, api, owner.rfc, 2026, 10);
    const device = await deviceMonthSpending(db, owner.rfc, 2026, 11, names);
    const server = await api.get<SpendingAnswer>(`/api/v3/analytics/spending/${owner.rfc}/2026/11`);
    expect(byLabel(device!.current.categories)).toEqual(byLabel(server.current.categories));
    expect(byLabel(device!.past!.categories)).toEqual(byLabel(server.past.categories));
    expect(spendingSummary(device!)).toEqual(spendingSummary(server));
    db.close();
  });

  it('says nothing for periods the device never pulled, and no change without the previous period', async () => {
    const db = await freshDb();
    expect(await deviceYearFigures(db, owner.rfc, 2026, names)).toBeNull();
    expect(await deviceMonthSpending(db, owner.rfc, 2026, 11, names)).toBeNull();
    await pullYear(db, api, owner.rfc, 2026);
    const year = await deviceYearFigures(db, owner.rfc, 2026, names);
    expect(year?.past).toBeNull();
    expect(spendingSummary(year!)?.hasPast).toBe(false);
    // Pulling only one month of a year is not the year.
    await pullMonth(db, api, owner.rfc, 2025, 7);
    expect(await deviceYearFigures(db, owner.rfc, 2025, names)).toBeNull();
    db.close();
  });
});
