// SAT's rules that need published data, on import: importCfdiBatch looks up the batch's exchange rates
// and RFCs once (exchange_rates, SAT's Cancelados list in inactive_rfcs) and stores CFDI40118 and
// CFDI40138 with the receipt's other findings. The lookup itself: the latest publication within 7 days
// before the Fecha, only the list named as SAT's cancelled RFCs counts, unknown data gives nothing.
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSandboxCfdi } from '../../../src/server/cfdi/issue';
import { isCancelledList, lookUpPublishedData } from '../../../src/server/cfdi/published-data';
import type { ListFacts } from '../../../src/server/cfdi/rules';
import { openTestCsd } from '../../../src/server/cfdi/seal';
import { clients, exchangeRates, inactiveRfcs, receipts } from '../../../src/server/db/schema';
import { importCfdiBatch } from '../../../src/server/imports/import-cfdi';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';
import { sampleInput } from '../cfdi/sat-tools';

const EKU = openTestCsd('EKU9003173C9');
/** sampleInput's Fecha is 2026-05-01 12:00 at 42501 (a Friday): stamped seconds later. */
const STAMPED_AT = new Date('2026-05-01T18:00:10Z');
const utf8 = (s: string) => new TextEncoder().encode(s);
const facts = (over: Partial<ListFacts>): ListFacts => ({
  fecha: '2026-05-03T10:00:00', moneda: 'USD', tipoCambio: '17.5', confirmacion: '', emisorRfc: 'EKU9003173C9', receptorRfc: 'XIQB891116QE4', ...over,
});

describe.each(DRIVERS)('published data on import (%s)', (driver) => {
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness(driver);
    const now = new Date();
    // Banxico publishes no rate on weekends: Friday's serves Saturday and Sunday.
    await h.database.db.insert(exchangeRates).values([
      { base: 'USD', date: '2026-04-30', rate: '17.000000', source: 'banxico', updatedAt: now },
      { base: 'USD', date: '2026-05-01', rate: '17.500000', source: 'banxico', updatedAt: now },
      { base: 'EUR', date: '2026-04-01', rate: '20.000000', source: 'manual', updatedAt: now },
    ]);
    await h.database.db.insert(inactiveRfcs).values([
      { rfc: 'EKU9003173C9', list: 'Cancelados' },
      { rfc: 'XIQB891116QE4', list: '69-B' },
    ]);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('finds the latest rate within 7 days before the date, and only SAT\'s cancelled RFCs', async () => {
    const lists = await lookUpPublishedData(h.database.db, [facts({}), facts({ moneda: 'EUR', fecha: '2026-05-01T10:00:00' }), facts({ fecha: '2026-04-29T10:00:00' })]);
    expect(lists.rate!('USD', '2026-05-03')).toBe('17.500000');
    expect(lists.rate!('USD', '2026-05-01')).toBeUndefined(); // not asked: nothing looked up for it
    expect(lists.rate!('EUR', '2026-05-01')).toBeUndefined(); // 30 days old: not that day's rate
    expect(lists.rate!('USD', '2026-04-29')).toBeUndefined(); // nothing published on or before it
    expect(lists.cancelledRfc!('EKU9003173C9')).toBe(true);
    expect(lists.cancelledRfc!('XIQB891116QE4')).toBe(false); // 69-B: registered, not cancelled
    expect(isCancelledList('cancelados')).toBe(true);
    expect(isCancelledList('Cancelados_2026-11')).toBe(true);
    expect(isCancelledList('No localizados')).toBe(false);
  });

  it('stores CFDI40118 and CFDI40138 on the imported receipt; a TipoCambio within 5 % has no CFDI40118', async () => {
    const u = await h.signUp('pub');
    const [client] = await h.database.db.insert(clients).values({ userId: u.userId, rfc: 'XIQB891116QE4', name: 'Cuenta' }).returning({ id: clients.id });
    const account = { clientId: client!.id, rfc: 'XIQB891116QE4' };
    const far = await issueSandboxCfdi(sampleInput({ folio: 'PUB-1', moneda: 'USD', tipoCambio: '19.000000' }), EKU, { at: STAMPED_AT });
    const near = await issueSandboxCfdi(sampleInput({ folio: 'PUB-2', moneda: 'USD', tipoCambio: '18.300000' }), EKU, { at: STAMPED_AT });
    const out = await importCfdiBatch(h.database.db, h.files, u.userId, [account], [
      { uploadId: 'far', bytes: utf8(far.xml) },
      { uploadId: 'near', bytes: utf8(near.xml) },
    ], new Date(), async () => undefined);
    expect(out.get('far')!.status).toBe('importado');
    expect(out.get('near')!.status).toBe('importado');
    const findingsOf = async (uploadId: string) => {
      const [row] = await h.database.db.select({ findings: receipts.findings }).from(receipts).where(inArray(receipts.id, out.get(uploadId)!.receiptIds));
      return row!.findings ?? [];
    };
    const farFindings = await findingsOf('far');
    // 19.00 is 8.6 % above the 17.50 published for Friday 2026-05-01; 18.30 is 4.6 %.
    expect(farFindings).toContainEqual({
      code: 'CFDI40118',
      message: 'El TipoCambio (19) se aparta más del 5 % del tipo de cambio publicado para USD (17.500000) y el CFDI no trae clave de Confirmación del PAC.',
    });
    expect(farFindings).toContainEqual({ code: 'CFDI40138', message: expect.stringContaining('EKU9003173C9') });
    expect(farFindings.map((f) => f.code)).not.toContain('CFDI40143');
    const nearCodes = (await findingsOf('near')).map((f) => f.code);
    expect(nearCodes).toContain('CFDI40138');
    expect(nearCodes).not.toContain('CFDI40118');
  });
});
