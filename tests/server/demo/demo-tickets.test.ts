import { inflateSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mexicoCityDate } from '../../../src/domain/mexico-time';
import type { Ticket } from '../../../src/domain/ticket';
import { settings, tickets } from '../../../src/server/db/schema';
import { DEMO_RFCS, DEMO_USER } from '../../../src/server/db/demo-accounts';
import { DEMO_MARKER, DEMO_PROFILES, demoTickets, seedDemoTickets } from '../../../src/server/demo/demo-tickets';
import { encodeGreyPng, receiptPng, RECEIPT_SIZE } from '../../../src/server/demo/png';
import { memoryFileStore } from '../../../src/server/files/file-store';
import { sniffImageType } from '../../../src/server/files/image-type';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

/** Chunks of a PNG with their CRCs checked; the IDAT inflated. */
function readPng(png: Uint8Array) {
  const b = Buffer.from(png);
  const types: string[] = [];
  let at = 8;
  let idat = Buffer.alloc(0);
  let width = 0;
  let height = 0;
  while (at < b.length) {
    const len = b.readUInt32BE(at);
    const type = b.toString('ascii', at + 4, at + 8);
    const data = b.subarray(at + 8, at + 8 + len);
    types.push(type);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
    }
    if (type === 'IDAT') idat = Buffer.concat([idat, data]);
    at += 12 + len;
  }
  return { types, width, height, raw: inflateSync(idat) };
}

describe('demo receipt PNG', () => {
  it('is a valid 120×200 greyscale PNG with pale paper and darker marks', () => {
    const png = receiptPng(Math.random);
    expect(sniffImageType(png)).toBe('image/png');
    const { types, width, height, raw } = readPng(png);
    expect(types).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect([width, height]).toEqual([RECEIPT_SIZE.width, RECEIPT_SIZE.height]);
    expect(raw.length).toBe((width + 1) * height);
    const pixels = [...raw].filter((_, i) => i % (width + 1) !== 0);
    expect(pixels.filter((p) => p === 246).length / pixels.length).toBeGreaterThan(0.7);
    expect(Math.min(...pixels)).toBeLessThan(100);
    expect(png.byteLength).toBeLessThan(4096);
  });

  it('rejects pixels of the wrong size', () => {
    expect(() => encodeGreyPng(2, 2, new Uint8Array(3))).toThrow();
  });
});

describe('demo year (pure)', () => {
  const now = new Date('2026-11-22T18:00:00Z');
  it('is deterministic and realistic: ~250 spendings and ~60 incomes per RFC, Jan 1 → now, notes and pictures', () => {
    for (const profile of DEMO_PROFILES) {
      const year = demoTickets(profile, now);
      expect(demoTickets(profile, now)).toEqual(year);
      const spendings = year.filter((t) => t.type === 2);
      const incomes = year.filter((t) => t.type === 4);
      expect(spendings.length).toBeGreaterThanOrEqual(220);
      expect(spendings.length).toBeLessThanOrEqual(280);
      expect(incomes.length).toBeGreaterThanOrEqual(50);
      expect(incomes.length).toBeLessThanOrEqual(70);
      expect(spendings.every((t) => t.statusId === 3 && t.metaTagId !== null && t.incomeMetaTagId === null)).toBe(true);
      expect(incomes.every((t) => t.statusId === 9 && t.incomeMetaTagId !== null && t.metaTagId === null)).toBe(true);
      expect(new Set(spendings.map((t) => t.metaTagId)).size).toBeGreaterThanOrEqual(12);
      expect(new Set(year.map((t) => t.receivedAt.getUTCDay())).size).toBe(7);
      expect(new Set(year.map((t) => mexicoCityDate(t.receivedAt).month)).size).toBe(11);
      expect(year.every((t) => t.receivedAt <= now && mexicoCityDate(t.receivedAt).year === 2026)).toBe(true);
      const noted = year.filter((t) => t.note).length / year.length;
      expect(noted).toBeGreaterThan(0.2);
      expect(noted).toBeLessThan(0.45);
      const pictures = year.filter((t) => t.image).length;
      expect(pictures).toBeGreaterThanOrEqual(15);
      expect(pictures).toBeLessThanOrEqual(20);
      expect(year.every((t) => /^\d+\.\d{2}$/.test(t.amount) && Number(t.amount) > 0)).toBe(true);
      expect(new Set(year.map((t) => t.id)).size).toBe(year.length);
    }
  });

  it('starts small on January 2 and never goes past now', () => {
    const early = new Date('2026-01-02T15:00:00Z');
    const year = demoTickets(DEMO_PROFILES[0]!, early);
    expect(year.length).toBeGreaterThan(0);
    expect(year.length).toBeLessThan(20);
    expect(year.every((t) => t.receivedAt <= early)).toBe(true);
  });
});

describe.each(DRIVERS)('demo data on %s', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  });
  afterAll(async () => h?.close());

  it('gives the demo user a populated year once, with images served by the API', async () => {
    const files = memoryFileStore();
    const now = new Date('2026-11-22T18:00:00Z');
    const written = await seedDemoTickets(h.database.db, files, now);
    expect(written).toBeGreaterThan(100);
    expect(await seedDemoTickets(h.database.db, files, now)).toBe(0);
    expect(await h.database.db.select().from(tickets)).toHaveLength(written);
    expect(await h.database.db.select().from(settings).where(eq(settings.key, DEMO_MARKER))).toHaveLength(1);
    const withImages = (await h.database.db.select().from(tickets)).filter((t) => t.imageKey);
    expect(files.size).toBe(withImages.length);

    const login = await h.call('POST', '/api/v2/login', { body: { user: { login: DEMO_USER.username, password: DEMO_USER.password } } });
    const token = login.json.response.token as string;
    const { year, month } = mexicoCityDate(now);
    for (const rfc of [DEMO_RFCS.persona.rfc, DEMO_RFCS.empresa.rfc]) {
      const r = await h.call('GET', `/api/v2/tickets?usuario[rfc_owner]=${rfc}&date[year]=${year}&usuario[view]=annual`, { token });
      const list = r.json.response.tickets as Ticket[];
      expect(list.length).toBeGreaterThan(40);
      expect(list.every((t) => t.rfc === rfc && t.company_short_name === 'manual')).toBe(true);
      const m = await h.call('GET', `/api/v2/tickets?usuario[rfc_owner]=${rfc}&date[year]=${year}&date[month]=${month}`, { token });
      expect(m.status).toBe(200);
    }
    const pictured = withImages[0]!;
    // The demo app here keeps files in memory; a second app over the same store serves them.
    const { createApp } = await import('../../../src/server/app');
    const { devMailboxMailer } = await import('../../../src/server/mail/mailer');
    const app = createApp({ db: h.database.db, mailer: devMailboxMailer(h.database.db), files });
    const img = await app.request(`/api/v2/ticket_image?ticket_id=${pictured.id}&access_token=${token}`);
    expect(img.status).toBe(200);
    expect(sniffImageType(new Uint8Array(await img.arrayBuffer()))).toBe('image/png');
  });
});
