// Merchants: the seeded catalog and forms, the CSD, the point-of-sale API with its key,
// ticket verification by form values and by QR (every refusal with its exact message), the demo
// tickets and the dev page. PGlite always; PostgreSQL too with DATABASE_URL.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERCHANT_API_MSG } from '../../../src/domain/merchant-api';
import { FIELD_TYPE, mexicoToday } from '../../../src/domain/merchant-fields';
import { MERCHANTS } from '../../../src/domain/merchants';
import { MSG } from '../../../src/domain/messages';
import { parseScannedQr } from '../../../src/domain/qr-payload';
import { checkCfdiSello, sealCfdi } from '../../../src/server/cfdi/seal';
import { companies, formFields, invoiceRequests, merchantTickets, settings } from '../../../src/server/db/schema';
import { seed } from '../../../src/server/seed';
import { MERCHANT_CATALOG, fieldId } from '../../../src/server/merchants/catalog';
import { forgetMerchantCsd, merchantById, merchantByShort, merchantCsd } from '../../../src/server/merchants/csd';
import { DEMO_TICKETS_PER_MERCHANT, seedDemoMerchantTickets } from '../../../src/server/merchants/demo-tickets';
import { rotateMerchantKey } from '../../../src/server/merchants/merchant-key';
import { ticketConceptos } from '../../../src/server/cfdi/ticket-conceptos';
import { csdPasswordContext, openSecret, serverSecret } from '../../../src/server/lib/secret-box';
import { findMerchantTicket } from '../../../src/server/merchants/verify';
import { maskEmail } from '../../../src/server/lib/mask-email';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

const AUTOZONE = 3; // fields: 301 label, 302 Número de ticket (integer, min 6), 303 Sucursal, 304 Fecha, 305 Importe
const CAMS = 6;
const MOVIL = 70; // 7002 Referencia de pago (type 7)
const HOTEL = 20;
const ip = () => `192.0.2.${Math.floor(Math.random() * 250) + 1}`;

function ticketBody(over: Record<string, unknown> = {}) {
  return {
    ticket_number: '700123',
    issued_at: new Date(Date.now() - 3600_000).toISOString(),
    venue: 'San Nicolás',
    forma_pago: '04',
    items: [
      { description: 'Aceite de motor 946 ml', quantity: '2', unit_price: '116.00', clave_prod_serv: '15121501', clave_unidad: 'H87' },
      { description: 'Libro de mantenimiento', quantity: 1, unit_price: 50, iva: 'IVA0' },
    ],
    ...over,
  };
}

describe.each(DRIVERS)('merchants on %s', (driver) => {
  let h: Harness;
  let key: string;
  /** k: the key to send (default: autozone's), null = no header. */
  const post = (body: unknown, k: string | null = key, short = 'autozone') =>
    h.call('POST', `/api/v3/merchants/${short}/tickets`, { body, headers: k === null ? {} : { 'X-Merchant-Key': k } });
  const verify = (query: string, from = ip()) => h.call('GET', `/api/v33/tickets/verify?${query}`, { ip: from });

  beforeAll(async () => {
    h = await createHarness(driver);
    key = (await rotateMerchantKey(h.database.db, 'autozone')) as string;
  });
  afterAll(async () => h?.close());

  describe('catalog and seed', () => {
    it('seeds every merchant of src/domain with issuer data, the test CSD and a sealed password; manual and cfdi keep their kinds', async () => {
      const rows = await h.database.db.select().from(companies);
      expect(rows.find((r) => r.id === 1)?.kind).toBe('manual');
      expect(rows.find((r) => r.id === 2)?.kind).toBe('cfdi');
      for (const m of MERCHANTS) {
        const row = rows.find((r) => r.id === m.id);
        expect(row, m.short_name).toBeDefined();
        expect(row).toMatchObject({ shortName: m.short_name, name: m.name, logo: m.logo, kind: 'merchant', rfc: 'EKU9003173C9', taxRegime: '601' });
        expect(row!.postalCode).toMatch(/^[0-9]{5}$/);
        expect(row!.legalName).toMatch(/^[A-ZÑ ]{10,}$/);
        expect(row!.csdPasswordEnc).not.toContain('12345678a');
      }
      // invented names: none reuses the brand it is listed under
      const fold = (x: string) => x.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toUpperCase();
      // (airports are named after their city, which is no one's mark)
      for (const m of MERCHANT_CATALOG.filter((x) => x.entry.picker !== 'oma')) {
        const brand = fold(m.entry.name).split(/[^A-Z]+/).filter((w) => w.length > 3 && !['AEROPUERTO', 'CIUDAD', 'MONTERREY', 'TORREON', 'TIJUANA', 'SALTILLO', 'CENTRO', 'HISTORICO', 'VALLE', 'CUMBRES', 'CANCUN'].includes(w));
        for (const word of brand) expect(fold(m.legalName), m.entry.short_name).not.toContain(word);
      }
    });

    it('lists merchants in /company/all.json with their logo path', async () => {
      const r = await h.call('GET', '/company/all.json');
      expect(r.status).toBe(200);
      expect(r.json.response).toContainEqual({ short_name: 'aeropuerto-ciudad-juarez', diverza_client_id: 32, name: 'Aeropuerto de Ciudad Juárez', value: '/merchants/aeropuerto-ciudad-juarez.svg' });
      expect(r.json.response).toContainEqual({ short_name: 'manual', diverza_client_id: 1, name: 'Registro manual', value: '/favicon.svg' });
    });

    it('uses field types 1, 2, 4, 6, 7, 8, 9 and 11 across the merchants, every form findable by a ticket number', async () => {
      const types = new Set(MERCHANT_CATALOG.flatMap((m) => m.fields.map((f) => f.type)));
      expect([...types].sort((a, b) => a - b)).toEqual([1, 2, 4, 6, 7, 8, 9, 11]);
      for (const m of MERCHANT_CATALOG) expect(m.fields.filter((f) => f.meaning === 'ticket_number'), m.entry.short_name).toHaveLength(1);
      expect(MERCHANT_CATALOG.filter((m) => m.kind === 'hotel').every((m) => m.fields.some((f) => f.name === 'Número de habitación'))).toBe(true);
    });

    it('re-seeding updates fields by id and removes the fields a merchant no longer has', async () => {
      const db = h.database.db;
      await db.insert(formFields).values({ id: fieldId(AUTOZONE, 99), companyId: AUTOZONE, position: 99, fieldName: 'Viejo', typeId: 2, meaning: 'other' });
      await db.update(formFields).set({ fieldName: 'Cambiado' }).where(eq(formFields.id, 302));
      await seed(db);
      const rows = await db.select().from(formFields).where(eq(formFields.companyId, AUTOZONE));
      expect(rows.map((r) => r.id).sort()).toEqual([301, 302, 303, 304, 305]);
      expect(rows.find((r) => r.id === 302)?.fieldName).toBe('Número de ticket');
      const manual = await db.select().from(companies).where(eq(companies.id, 1));
      expect(manual[0]?.kind).toBe('manual');
    });
  });

  describe('form fields', () => {
    it('GET /form/fields.json gives the form in order with types, min lengths, help images and options', async () => {
      const r = await h.call('GET', `/form/fields.json?company[id]=${AUTOZONE}&usuario[token]=x`);
      expect(r.status).toBe(200);
      expect(r.json.response).toEqual([
        { form_configuration_id: 301, field_name: 'Los datos están al pie de tu ticket de compra.', form_field_type_id: 11, min_length: null, helper_image: null, options: [] },
        { form_configuration_id: 302, field_name: 'Número de ticket', form_field_type_id: 1, min_length: 6, helper_image: '/merchants/help/ticket-number.svg', options: [] },
        {
          form_configuration_id: 303, field_name: 'Sucursal', form_field_type_id: 8, min_length: null, helper_image: '/merchants/help/venue.svg',
          options: [{ option_id: 1, option_title: 'Monterrey Centro' }, { option_id: 2, option_title: 'San Nicolás' }, { option_id: 3, option_title: 'Guadalupe' }, { option_id: 4, option_title: 'Apodaca' }],
        },
        { form_configuration_id: 304, field_name: 'Fecha', form_field_type_id: 4, min_length: null, helper_image: '/merchants/help/date.svg', options: [] },
        { form_configuration_id: 305, field_name: 'Importe', form_field_type_id: 9, min_length: null, helper_image: '/merchants/help/amount.svg', options: [] },
      ]);
    });

    it('answers 404 for an unknown company, for our own origins and without company[id]', async () => {
      for (const q of ['company[id]=999', 'company[id]=1', 'company[id]=abc', '']) {
        const r = await h.call('GET', `/form/fields.json?${q}`);
        expect(r.status, q).toBe(404);
        expect(r.json).toEqual({ errors: [MSG.notFound] });
      }
    });

    it('GET /form/data_types.json lists the field types', async () => {
      const r = await h.call('GET', '/form/data_types.json');
      expect(r.status).toBe(200);
      expect(r.json.response.map((t: { id: number }) => t.id)).toEqual([1, 2, 4, 6, 7, 8, 9, 11]);
      expect(r.json.response.every((t: { name: string }) => t.name.length > 3)).toBe(true);
    });
  });

  describe('issuer data and CSD', () => {
    it('merchantByShort / merchantById give the issuer data; not for our own origins', async () => {
      const m = await merchantByShort(h.database.db, 'holiday-inn-tijuana');
      expect(m).toEqual({
        id: 24, shortName: 'holiday-inn-tijuana', name: 'Holiday Inn Tijuana', logo: '/merchants/holiday-inn-tijuana.svg',
        rfc: 'EKU9003173C9', legalName: 'HOSPEDAJE VACACIONAL FRONTERIZO', taxRegime: '601', postalCode: '22000',
      });
      expect(await merchantById(h.database.db, 24)).toEqual(m);
      expect(await merchantById(h.database.db, 1)).toBeNull();
      expect(await merchantByShort(h.database.db, 'nadie')).toBeNull();
    });

    it('merchantCsd opens the stored CSD (password sealed under the server secret) and seals a CFDI that verifies', async () => {
      const db = h.database.db;
      const issuer = (await merchantById(db, HOTEL))!;
      const csd = await merchantCsd(db, HOTEL);
      expect(csd.rfc).toBe('EKU9003173C9');
      expect(csd.noCertificado).toBe('30001000000500003416');
      expect(await merchantCsd(db, HOTEL)).toBe(csd); // cached
      const items = [{ description: 'Hospedaje', quantity: '2', unit_price: '1500.00', clave_prod_serv: '90111501', clave_unidad: 'DAY', iva: 'IVA16' }];
      const sealed = sealCfdi(
        {
          fecha: new Date(), formaPago: '04', metodoPago: 'PUE', tipoDeComprobante: 'I', lugarExpedicion: issuer.postalCode,
          emisor: { rfc: issuer.rfc, nombre: issuer.legalName, regimenFiscal: issuer.taxRegime },
          receptor: { rfc: 'XIQB891116QE4', nombre: 'BERENICE XIMO QUEZADA', domicilioFiscalReceptor: '88965', regimenFiscalReceptor: '612', usoCfdi: 'G03' },
          conceptos: ticketConceptos(items),
        },
        csd,
      );
      expect(checkCfdiSello(sealed.xml).ok).toBe(true);
      expect(sealed.xml).toContain('Total="3000.00"');
      expect(sealed.xml).toContain('Cantidad="2"');
    });

    it('a password box does not open under another company or when altered', async () => {
      const db = h.database.db;
      const [row] = await db.select({ enc: companies.csdPasswordEnc }).from(companies).where(eq(companies.id, HOTEL));
      const secret = await serverSecret(db);
      expect(openSecret(secret, row!.enc!, csdPasswordContext(HOTEL))).toBe('12345678a');
      expect(() => openSecret(secret, row!.enc!, csdPasswordContext(HOTEL + 1))).toThrow();
      const raw = Buffer.from(row!.enc!.slice(3), 'base64');
      raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
      expect(() => openSecret(secret, `v1:${raw.toString('base64')}`, csdPasswordContext(HOTEL))).toThrow();
      await db.update(companies).set({ csdPasswordEnc: `v1:${raw.toString('base64')}` }).where(eq(companies.id, 21));
      forgetMerchantCsd(db, 21);
      await expect(merchantCsd(db, 21)).rejects.toThrow();
      await seed(db);
      await expect(merchantCsd(db, 21)).resolves.toBeDefined();
    });
  });

  describe('point-of-sale API', () => {
    it('registers a ticket: prices with IVA included, exact subtotal/IVA/total, a 16-character ref and a QR of our merchant form', async () => {
      const r = await post(ticketBody({ total: '282.00' }));
      expect(r.status).toBe(201);
      const res = r.json.response;
      expect(res).toMatchObject({ subtotal: '250.00', tax: '32.00', total: '282.00' });
      expect(res.ref).toMatch(/^[A-Z0-9]{16}$/);
      expect(res.check_code).toMatch(/^[A-Z0-9]{6}$/);
      const qr = parseScannedQr(res.qr);
      expect(qr).toEqual({ kind: 'merchant', short_name: 'autozone', ref: res.ref, check: res.check_code, total: '282.00' });
      const [row] = await h.database.db.select().from(merchantTickets).where(eq(merchantTickets.ref, res.ref));
      expect(row).toMatchObject({ companyId: AUTOZONE, ticketNumber: '700123', venue: 'San Nicolás', postalCode: '64000', formaPago: '04' });
      expect(row!.items[1]).toEqual({ description: 'Libro de mantenimiento', quantity: '1', unit_price: '50', clave_prod_serv: '01010101', clave_unidad: 'H87', iva: 'IVA0' });
    });

    it('refuses a missing, wrong or other merchant\'s key, and an unknown merchant, with the same 401', async () => {
      const other = (await rotateMerchantKey(h.database.db, 'cams')) as string;
      for (const [k, short] of [[null, 'autozone'], ['ccm_no', 'autozone'], [other, 'autozone'], [key, 'cams'], [key, 'nadie']] as const) {
        const r = await post(ticketBody({ ticket_number: '700999' }), k, short);
        expect(r.status).toBe(401);
        expect(r.json).toEqual({ errors: [MSG.merchantKeyInvalid] });
      }
      const [row] = await h.database.db.select({ hash: companies.apiKeyHash }).from(companies).where(eq(companies.id, CAMS));
      expect(row!.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row!.hash).not.toContain(other);
    });

    it('refuses a rotated (old) key', async () => {
      const oldKey = (await rotateMerchantKey(h.database.db, 'copexa')) as string;
      const newKey = (await rotateMerchantKey(h.database.db, 'copexa')) as string;
      const body = { ticket_number: 'CO0000001', issued_at: new Date().toISOString(), forma_pago: '01', items: [{ description: 'Cuaderno', quantity: '1', unit_price: '49.00' }] };
      expect((await post(body, oldKey, 'copexa')).status).toBe(401);
      expect((await post(body, newKey, 'copexa')).status).toBe(201);
    });

    it.each([
      ['a total that does not add up', { ticket_number: '700201', total: '281.99' }, 422, `${MERCHANT_API_MSG.totalMismatch} 282.00`],
      ['a future sale', { ticket_number: '700202', issued_at: new Date(Date.now() + 3600_000).toISOString() }, 422, MERCHANT_API_MSG.issuedAtFuture],
      ['a sale older than a year', { ticket_number: '700203', issued_at: '2020-01-01T10:00:00-06:00' }, 422, MERCHANT_API_MSG.issuedAtOld],
      ['a branch that is not an option of the form', { ticket_number: '700204', venue: 'Saltillo' }, 422, `${MERCHANT_API_MSG.venue} (Monterrey Centro, San Nicolás, Guadalupe, Apodaca)`],
      ['a ticket number the form cannot take', { ticket_number: '12345' }, 422, `${MERCHANT_API_MSG.ticketNumberForm} Número de ticket: 6 caracteres mínimo`],
      ['a ticket number with symbols', { ticket_number: '70-01' }, 400, MERCHANT_API_MSG.ticketNumber],
      ['a date without zone', { ticket_number: '700205', issued_at: '2026-01-01 10:00' }, 400, MERCHANT_API_MSG.issuedAt],
      ['an unknown forma de pago', { ticket_number: '700206', forma_pago: '07' }, 400, MERCHANT_API_MSG.formaPago],
      ['no items', { ticket_number: '700207', items: [] }, 400, MERCHANT_API_MSG.items],
      ['a zero quantity', { ticket_number: '700208', items: [{ description: 'x', quantity: '0', unit_price: '1' }] }, 400, MERCHANT_API_MSG.quantity],
      ['a negative price', { ticket_number: '700209', items: [{ description: 'x', quantity: '1', unit_price: '-1' }] }, 400, MERCHANT_API_MSG.unitPrice],
      ['an unknown IVA', { ticket_number: '700210', items: [{ description: 'x', quantity: '1', unit_price: '1', iva: 'IVA10' }] }, 400, MERCHANT_API_MSG.iva],
      ['a bad clave de producto', { ticket_number: '700211', items: [{ description: 'x', quantity: '1', unit_price: '1', clave_prod_serv: '123' }] }, 400, MERCHANT_API_MSG.claveProdServ],
      ['a line worth less than a cent', { ticket_number: '700212', items: [{ description: 'x', quantity: '0.001', unit_price: '1' }] }, 422, MERCHANT_API_MSG.lineZero],
      ['a short check code', { ticket_number: '700213', check_code: 'AB' }, 400, MERCHANT_API_MSG.checkCode],
      ['a bad postal code', { ticket_number: '700214', postal_code: '6400' }, 400, MERCHANT_API_MSG.postalCode],
    ])('refuses %s', async (_name, over, status, message) => {
      const r = await post(ticketBody(over));
      expect(r.status).toBe(status);
      expect(r.json).toEqual({ errors: [message] });
    });

    it('refuses a ticket number already registered (409), also when sent twice at once', async () => {
      const body = ticketBody({ ticket_number: '700300' });
      const [a, b] = await Promise.all([post(body), post(body)]);
      expect([a.status, b.status].sort()).toEqual([201, 409]);
      expect((a.status === 409 ? a : b).json).toEqual({ errors: [MERCHANT_API_MSG.duplicate] });
      expect((await post(body)).status).toBe(409);
    });

    it('scopes Idempotency-Key by merchant key: another merchant gets its own answer, a replay needs the key', async () => {
      const camsKey = (await rotateMerchantKey(h.database.db, 'cams')) as string;
      const idem = '0190f4f0-0000-7000-8000-00000000a11a';
      const send = (body: unknown, k: string | null, short: string) =>
        h.call('POST', `/api/v3/merchants/${short}/tickets`, { body, headers: { 'Idempotency-Key': idem, ...(k ? { 'X-Merchant-Key': k } : {}) } });
      const body = ticketBody({ ticket_number: '700555' }); // issued_at is made per call: one body, reused
      const first = await send(body, key, 'autozone');
      expect(first.status).toBe(201);
      // The same key from another merchant is another request, not a 422 and not autozone's answer.
      const other = await send({ ...ticketBody({ ticket_number: '700556', venue: 'roma norte' }), total: undefined }, camsKey, 'cams');
      expect(other.status).toBe(201);
      expect(other.json.response.ref).not.toBe(first.json.response.ref);
      // Without the merchant key, no stored answer is handed out.
      const stranger = await send(body, null, 'autozone');
      expect(stranger.status).toBe(401);
      // The same merchant repeating gets its stored answer.
      const again = await send(body, key, 'autozone');
      expect(again.status, JSON.stringify(again.json)).toBe(201);
      expect(again.json.response.ref).toBe(first.json.response.ref);
    });

    it('keeps IVA at 8 %, 0 % and exempt apart and matches the CFDI amounts', async () => {
      const cams = (await rotateMerchantKey(h.database.db, 'cams')) as string;
      const r = await post(
        {
          ticket_number: '4242', issued_at: new Date().toISOString(), venue: 'roma norte', forma_pago: '28',
          items: [
            { description: 'Consulta', quantity: '1', unit_price: '75', iva: 'EXENTO' },
            { description: 'Paracetamol', quantity: '3', unit_price: '39.90', iva: 'IVA0' },
            { description: 'Protector solar', quantity: '1', unit_price: '299.00', iva: 'IVA8' },
            { description: 'Termómetro', quantity: '1', unit_price: '199.00' },
          ],
        },
        cams,
        'cams',
      );
      expect(r.status).toBe(201);
      // 75 + 119.70 + 276.85 + 171.55 = 643.10 ; IVA 22.15 + 27.45 = 49.60
      expect(r.json.response).toMatchObject({ subtotal: '643.10', tax: '49.60', total: '692.70' });
      const [row] = await h.database.db.select().from(merchantTickets).where(eq(merchantTickets.ref, r.json.response.ref));
      expect(row!.venue).toBe('Roma Norte');
    });
  });

  describe('verify', () => {
    let t: typeof merchantTickets.$inferSelect;
    const values = (over: Record<number, string> = {}) => {
      const v: Record<number, string> = { 302: t.ticketNumber, 303: '2', 304: mexicoToday(t.issuedAt), 305: t.total, ...over };
      return Object.entries(v).map(([k, x]) => `values[${k}]=${encodeURIComponent(x)}`).join('&');
    };
    beforeAll(async () => {
      const r = await post(ticketBody({ ticket_number: '800100', venue: 'San Nicolás' }));
      [t] = await h.database.db.select().from(merchantTickets).where(eq(merchantTickets.ref, r.json.response.ref)) as [typeof t];
    });

    it('finds the ticket by its form values (select by option id or title, amount in any decimal form)', async () => {
      const r = await verify(`company[id]=${AUTOZONE}&${values()}&flow=form`);
      expect(r.status).toBe(200);
      expect(r.json.response).toEqual({
        ref: t.ref, ticket_number: '800100', venue: 'San Nicolás', issued_at: t.issuedAt.toISOString(),
        subtotal: '250.00', tax: '32.00', total: '282.00', forma_pago: '04', invoiced: false, invoice: null,
      });
      expect((await verify(`company[id]=${AUTOZONE}&${values({ 303: 'san nicolás', 305: '282' })}`)).status).toBe(200);
    });

    it.each([
      ['an amount that differs', { 305: '282.01' }],
      ['another date', { 304: '2020/01/02' }],
      ['another branch', { 303: '1' }],
      ['an unknown ticket number', { 302: '999999' }],
    ])('answers the §8 not-found message for %s', async (_n, over) => {
      const r = await verify(`company[id]=${AUTOZONE}&${values(over)}`);
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ errors: [MSG.ticketNotFound33] });
    });

    it.each([
      ['a whole number', { 302: '8001.5' }, MSG.fieldWholeNumber],
      ['zero', { 302: '0' }, MSG.fieldWholeNumber],
      ['the minimum length', { 302: '12345' }, '6 caracteres mínimo'],
      ['a date in the future', { 304: mexicoToday(new Date(Date.now() + 3 * 86_400_000)) }, MSG.fieldDate],
      ['an impossible date', { 304: '2025/02/30' }, MSG.fieldDate],
      ['a decimal amount', { 305: '12.345' }, MSG.fieldDecimal],
      ['a listed option', { 303: '9' }, MSG.fieldOption],
      ['a value for each field', { 304: '' }, MSG.fieldRequired],
    ])('checks each field type: %s', async (_n, over, message) => {
      const r = await verify(`company[id]=${AUTOZONE}&${values(over)}`);
      expect(r.status).toBe(422);
      expect(r.json).toEqual({ errors: [message] });
    });

    it('uses each flow\'s message and fields: multi, merchant (Fecha and Importe hidden, not required)', async () => {
      const multi = await verify(`company[id]=${AUTOZONE}&${values({ 305: '1.00' })}&flow=multi`);
      expect(multi.json).toEqual({ errors: [MSG.multiTicketNotFound] });
      const merchant = await verify(`company[id]=${AUTOZONE}&values[302]=800100&values[303]=2&flow=merchant`);
      expect(merchant.status).toBe(200);
      const missing = await verify(`company[id]=${AUTOZONE}&values[302]=800101&values[303]=2&flow=merchant`);
      expect(missing.json).toEqual({ errors: [MSG.merchantTicketNotFound] });
    });

    it('does not find merchant A\'s ticket through merchant B', async () => {
      const r = await verify(`company[id]=${CAMS}&values[601]=800100&values[602]=2&values[603]=${mexicoToday(t.issuedAt)}&values[604]=282.00`);
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ errors: [MSG.ticketNotFound33] });
      const qr = await verify(`company[id]=${CAMS}&ref=${t.ref}&check=${t.checkCode}&total=${t.total}&flow=merchant`);
      expect(qr.json).toEqual({ errors: [MSG.merchantTicketNotFound] });
      expect((await findMerchantTicket(h.database.db, CAMS, { ref: t.ref, check: t.checkCode, total: t.total })).ok).toBe(false);
    });

    it('finds a ticket by its QR, and refuses a tampered ref, check code or total', async () => {
      const ok = await verify(`company[id]=${AUTOZONE}&ref=${t.ref}&check=${t.checkCode}&total=${t.total}&flow=merchant`);
      expect(ok.status).toBe(200);
      expect(ok.json.response.ref).toBe(t.ref);
      const other = t.ref.endsWith('A') ? `${t.ref.slice(0, -1)}B` : `${t.ref.slice(0, -1)}A`;
      for (const q of [`ref=${other}&check=${t.checkCode}&total=${t.total}`, `ref=${t.ref}&check=ZZZZZZ&total=${t.total}`, `ref=${t.ref}&check=${t.checkCode}&total=1.00`, `ref=${t.ref}&check=&total=${t.total}`]) {
        const r = await verify(`company[id]=${AUTOZONE}&${q}&flow=merchant`);
        expect(r.status, q).toBe(404);
        expect(r.json).toEqual({ errors: [MSG.merchantTicketNotFound] });
      }
    });

    it('checks the 24-digit payment reference (type 7) of the anonymous merchant', async () => {
      const k = (await rotateMerchantKey(h.database.db, 'movil-norte')) as string;
      const reference = '123456789012345678901234';
      const reg = await post({ ticket_number: reference, issued_at: new Date().toISOString(), forma_pago: '04', items: [{ description: 'Plan', quantity: '1', unit_price: '499.00' }] }, k, 'movil-norte');
      expect(reg.status).toBe(201);
      expect((await post({ ticket_number: '1234', issued_at: new Date().toISOString(), forma_pago: '04', items: [{ description: 'Plan', quantity: '1', unit_price: '1' }] }, k, 'movil-norte')).json).toEqual({
        errors: [`${MERCHANT_API_MSG.ticketNumberForm} Referencia de pago: ${MSG.fieldCardBlocks}`],
      });
      const today = mexicoToday(new Date());
      const spaced = '1234 5678 9012 3456 7890 1234';
      const found = await verify(`company[id]=${MOVIL}&values[7002]=${encodeURIComponent(spaced)}&values[7003]=${today}&values[7004]=499&flow=anonymous`);
      expect(found.status).toBe(200);
      const bad = await verify(`company[id]=${MOVIL}&values[7002]=1234&values[7003]=${today}&values[7004]=499&flow=anonymous`);
      expect(bad.json).toEqual({ errors: [MSG.fieldCardBlocks] });
    });

    it('tells whether the ticket was invoiced: the current request, masked e-mail and UUID', async () => {
      const db = h.database.db;
      const first = '0195f0a0-0000-7000-8000-000000000001';
      const second = '0195f0a0-0000-7000-8000-000000000002';
      const receiver = { rfc: 'XIQB891116QE4', nombre: 'BERENICE XIMO QUEZADA', codigo_postal: '88965', regimen_fiscal: '612', uso_cfdi: 'G03' };
      await db.insert(invoiceRequests).values([
        { id: first, companyId: AUTOZONE, channel: 'anonymous', receiver, email: 'berenice.ximo@example.com', status: 'sustituida' },
        { id: second, companyId: AUTOZONE, channel: 'anonymous', receiver, email: 'berenice.ximo@example.com', status: 'enviada', uuid: 'AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE', replacesId: first },
      ]);
      await db.update(merchantTickets).set({ invoiceRequestId: first }).where(eq(merchantTickets.id, t.id));
      const r = await verify(`company[id]=${AUTOZONE}&ref=${t.ref}&check=${t.checkCode}&total=${t.total}`);
      expect(r.json.response.invoiced).toBe(true);
      expect(r.json.response.invoice).toEqual({ request_id: second, status: 'enviada', email_masked: maskEmail('berenice.ximo@example.com'), uuid: 'AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE' });
      expect(maskEmail('berenice.ximo@example.com')).toBe('be***********@ex*****.com');
      await db.update(invoiceRequests).set({ status: 'solicitada' }).where(eq(invoiceRequests.id, second));
      const inFlight = await verify(`company[id]=${AUTOZONE}&ref=${t.ref}&check=${t.checkCode}&total=${t.total}`);
      expect(inFlight.json.response).toMatchObject({ invoiced: false, invoice: { status: 'solicitada' } });
    });

    it('answers 404 for an unknown company and limits each address to 60 lookups a minute', async () => {
      const unknown = await verify('company[id]=4040&values[1]=1');
      expect(unknown.status).toBe(404);
      expect(unknown.json).toEqual({ errors: [MSG.notFound] });
      const from = '198.51.100.7';
      for (let i = 0; i < 60; i++) expect((await verify(`company[id]=${AUTOZONE}&values[302]=1`, from)).status).not.toBe(429);
      const limited = await verify(`company[id]=${AUTOZONE}&values[302]=1`, from);
      expect(limited.status).toBe(429);
      expect(limited.json).toEqual({ errors: [MERCHANT_API_MSG.rateLimited] });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await verify(`company[id]=${AUTOZONE}&values[302]=1`, '198.51.100.8')).status).not.toBe(429);
    });
  });

  describe('demo tickets and the dev page', () => {
    it('seeds ~15 tickets per merchant once, each one findable through its own form and its QR', async () => {
      const db = h.database.db;
      const now = new Date();
      const written = await seedDemoMerchantTickets(db, now);
      expect(written).toBe(MERCHANT_CATALOG.length * DEMO_TICKETS_PER_MERCHANT);
      expect(await seedDemoMerchantTickets(db, now)).toBe(0);
      const [marker] = await db.select().from(settings).where(eq(settings.key, 'demo_merchant_tickets_v1'));
      expect(marker).toBeDefined();
      const today = mexicoToday(now);
      for (const m of MERCHANT_CATALOG) {
        const rows = await db.select().from(merchantTickets).where(and(eq(merchantTickets.companyId, m.entry.id)));
        const demo = rows.filter((r) => r.createdAt.getTime() === r.issuedAt.getTime());
        expect(demo.length, m.entry.short_name).toBe(DEMO_TICKETS_PER_MERCHANT);
        for (const t of demo) {
          expect(mexicoToday(t.issuedAt) <= today).toBe(true);
          expect(now.getTime() - t.issuedAt.getTime()).toBeLessThan(31 * 86_400_000);
          expect(Number(t.subtotal) + Number(t.tax)).toBeCloseTo(Number(t.total), 2);
          const vals = new Map<number, string>();
          for (const f of m.fields) {
            const id = fieldId(m.entry.id, f.n);
            if (f.meaning === 'ticket_number') vals.set(id, t.ticketNumber);
            else if (f.meaning === 'date') vals.set(id, mexicoToday(t.issuedAt));
            else if (f.meaning === 'amount') vals.set(id, t.total);
            else if (f.meaning === 'venue') vals.set(id, t.venue);
            else if (f.meaning === 'check') vals.set(id, t.checkCode);
            else if (f.type === FIELD_TYPE.integer) vals.set(id, '305');
          }
          const byForm = await findMerchantTicket(db, m.entry.id, { values: vals, flow: 'form' }, now);
          expect(byForm.ok ? byForm.ticket.id : byForm, `${m.entry.short_name} ${t.ticketNumber}`).toBe(t.id);
          if (t === demo[0]) {
            const byQr = await findMerchantTicket(db, m.entry.id, { ref: t.ref, check: t.checkCode, total: t.total });
            expect(byQr.ok).toBe(true);
          }
        }
      }
      const iva8 = await db.select().from(merchantTickets).where(eq(merchantTickets.companyId, 24));
      expect(iva8.every((t) => t.items.every((i) => i.iva === 'IVA8'))).toBe(true);
    }, 180_000);

    it('GET /dev/merchant-tickets lists the merchants; a merchant\'s page shows form values and QR codes', async () => {
      const index = await h.call('GET', '/dev/merchant-tickets', { direct: true });
      expect(index.status).toBe(200);
      expect(index.text).toContain('href="/dev/merchant-tickets/aeropuerto-zihuatanejo"');
      expect(index.text).not.toContain('<script');
      const page = await h.call('GET', '/dev/merchant-tickets/csj-cumbres', { direct: true });
      expect(page.status).toBe(200);
      const [t] = await h.database.db.select().from(merchantTickets).where(eq(merchantTickets.companyId, 52)).limit(1);
      expect(page.text).toContain(`<code>${t!.checkCode}</code>`);
      expect(page.text).toContain(t!.ref);
      expect(page.text.match(/<svg/g)?.length).toBe(DEMO_TICKETS_PER_MERCHANT);
      expect((await h.call('GET', '/dev/merchant-tickets/manual', { direct: true })).status).toBe(404);
    });

    it('is not served when the dev tools are off', async () => {
      const prod = await createHarness(driver, { devTools: false });
      try {
        expect((await prod.call('GET', '/dev/merchant-tickets', { direct: true })).status).toBe(404);
      } finally {
        await prod.close();
      }
    });
  });

  it('documents its endpoints in the OpenAPI document', async () => {
    const doc = (await h.call('GET', '/api/openapi.json')).json;
    for (const [path, method] of [
      ['/form/fields.json', 'get'], ['/form/data_types.json', 'get'], ['/api/v33/tickets/verify', 'get'],
      ['/api/v3/merchants/{short_name}/tickets', 'post'], ['/api/v3/rfc/{rfc}', 'get'], ['/dev/merchant-tickets', 'get'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    const pos = doc.paths['/api/v3/merchants/{short_name}/tickets'].post;
    expect(pos.responses).toHaveProperty('201');
    expect(pos.responses).toHaveProperty('401');
    expect(pos.requestBody.content['application/json'].schema.properties).toHaveProperty('items');
  });
});
