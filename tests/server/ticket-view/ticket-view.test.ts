// The public receipt view (spec §7 'Receipt view', §2 'Ticket receipt view'): the ticket as XML with the
// venue in headers, 404 for unknown refs, and a 180×180 QR that reads back as the verification link.
import { DOMParser } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { companies, merchantTickets } from '../../../src/server/db/schema';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';
import { decodeModules, svgModules } from './qr-raster';

const COMPANY = 9301;
const REF = 'K7Q2M9X4TB8C1ZP5';

describe.each(DRIVERS)('receipt view (%s)', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver, { publicUrl: 'https://cuentas.example.mx' });
    const db = h.database.db;
    await db.insert(companies).values({
      id: COMPANY, shortName: 'cafe-prueba-h5', name: 'Café Ñandú & Hijos', logo: '/merchants/cafe-prueba-h5.svg',
      kind: 'merchant', rfc: 'EKU9003173C9', legalName: 'Cafetería de Prueba SA de CV', taxRegime: '601', postalCode: '06600',
    });
    await db.insert(merchantTickets).values({
      id: '0b9c7f2e-5d1a-4c1e-9f00-1a2b3c4d5e6f', companyId: COMPANY, ref: REF, ticketNumber: 'A1B2C3D4E5F6G',
      venue: 'Sucursal "Roma" <Norte>', postalCode: '06700', issuedAt: new Date('2026-11-20T19:45:00Z') /* 13:45 in Mexico City */,
      items: [
        { description: 'Café americano', quantity: '2', unit_price: '45.50', clave_prod_serv: '90101500', clave_unidad: 'E48', iva: 'IVA16' },
        { description: 'Pan & mantequilla', quantity: '1.5', unit_price: '20', clave_prod_serv: '90101500', clave_unidad: 'H87', iva: 'IVA16' },
      ],
      subtotal: '104.31', tax: '16.69', total: '121.00', formaPago: '04', checkCode: 'X9',
    });
  });
  afterAll(async () => h.close());

  it('serves the ticket as XML with the venue name (percent-encoded UTF-8) and logo in headers', async () => {
    const r = await h.call('GET', `/api/v3/tickets/${REF}?format=json`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(decodeURIComponent(r.headers.get('x-venue-name') ?? '')).toBe('Café Ñandú & Hijos');
    expect(r.headers.get('x-venue-logo')).toBe('/merchants/cafe-prueba-h5.svg');
    const doc = new DOMParser().parseFromString(r.text, 'application/xml');
    const t = doc.documentElement!;
    expect(t.nodeName).toBe('Ticket');
    const attrs = Object.fromEntries(['rfc', 'folio', 'fecha', 'lugar', 'formaPago', 'subtotal', 'impuestos', 'total', 'venue'].map((a) => [a, t.getAttribute(a)]));
    expect(attrs).toEqual({
      rfc: 'EKU9003173C9', folio: 'A1B2C3D4E5F6G', fecha: '2026-11-20T13:45:00', lugar: '06700', formaPago: '04',
      subtotal: '104.31', impuestos: '16.69', total: '121.00', venue: 'Sucursal "Roma" <Norte>',
    });
    const conceptos = Array.from(doc.getElementsByTagName('Concepto')).map((c) => [c.getAttribute('descripcion'), c.getAttribute('cantidad'), c.getAttribute('importe')]);
    expect(conceptos).toEqual([['Café americano', '2', '91.00'], ['Pan & mantequilla', '1.5', '30.00']]);
    // Nothing about the buyer or the invoice request leaks.
    expect(r.text).not.toMatch(/X9|check|invoice/i);
  });

  it('answers 404 with the not-found message for unknown or malformed refs', async () => {
    for (const ref of ['ZZZZZZZZZZZZZZZZ', 'k7q2m9x4tb8c1zp5', 'ABC']) {
      const r = await h.call('GET', `/api/v3/tickets/${ref}?format=json`);
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ errors: [MSG.notFound] });
      expect((await h.call('GET', `/api/v3/tickets/${ref}/qr.svg`)).status).toBe(404);
    }
  });

  it('draws a 180×180 QR that decodes to the verification link with ref, rfc and folio', async () => {
    const r = await h.call('GET', `/api/v3/tickets/${REF}/qr.svg`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(r.text).toMatch(/<svg [^>]*width="180" height="180"/);
    expect(decodeModules(svgModules(r.text))).toBe(`https://cuentas.example.mx/#/tickets?ref=${REF}&rfc=EKU9003173C9&folio=A1B2C3D4E5F6G`);
  });

  it('is listed in the OpenAPI document', async () => {
    const r = await h.call('GET', '/api/openapi.json');
    expect(Object.keys(r.json.paths)).toEqual(expect.arrayContaining(['/api/v3/tickets/{ref}', '/api/v3/tickets/{ref}/qr.svg']));
  });
});
