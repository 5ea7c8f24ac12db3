// The public receipt view: reading the server's XML and headers, the spec's display rules (folio in
// groups of 5, date's first 10 characters, payment method label), the error flag, and its route guard.
import { DOMParser } from '@xmldom/xmldom';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { guardRoute } from '../../../src/app/top-level';
import { groupFolio, matchesLink, readReceipt, safeLogo } from '../../../src/app/ticket-view/receipt-model';
import { ReceiptView, RECEIPT_TXT } from '../../../src/app/ticket-view/receipt-view-page';
import { ticketXml } from '../../../src/server/ticket-view/ticket-xml';

const XML = ticketXml({
  ref: 'K7Q2M9X4TB8C1ZP5', rfc: 'EKU9003173C9', folio: 'A1B2C3D4E5F6G', issuedAt: new Date('2026-11-21T02:30:00Z'), postalCode: '06700',
  venue: 'Sucursal Roma', formaPago: '04', subtotal: '104.31', tax: '16.69', total: '121.00',
  items: [{ description: 'Café & pan', quantity: '2', unit_price: '60.50', clave_prod_serv: '90101500', clave_unidad: 'E48', iva: 'IVA16' }],
});
const headers = new Map([['X-Venue-Name', encodeURIComponent('Café Ñandú')], ['X-Venue-Logo', '/merchants/cafe.svg']]);
const parse = () => readReceipt(new DOMParser().parseFromString(XML, 'application/xml') as unknown as Document, { get: (n) => headers.get(n) ?? null }, 'K7Q2M9X4TB8C1ZP5');

describe('receipt model', () => {
  it('reads the XML and the venue headers', () => {
    expect(parse()).toEqual({
      ref: 'K7Q2M9X4TB8C1ZP5', venueName: 'Café Ñandú', venueLogo: '/merchants/cafe.svg', rfc: 'EKU9003173C9', folio: 'A1B2C3D4E5F6G',
      // 02:30 UTC on the 21st is still the 20th in Mexico City.
      date: '2026-11-20', place: '06700', paymentMethod: 'Tarjeta de crédito', subtotal: '104.31', tax: '16.69', total: '121.00',
      branch: 'Sucursal Roma', lines: [{ description: 'Café & pan', quantity: '2', amount: '121.00' }],
    });
  });

  it('groups the folio by 5 and accepts only our own logo paths', () => {
    expect(groupFolio('A1B2C3D4E5F6G')).toBe('A1B2C 3D4E5 F6G');
    expect(groupFolio('12345')).toBe('12345');
    expect([safeLogo('/merchants/a.svg'), safeLogo('//evil.example/a.svg'), safeLogo('https://evil.example/a.svg'), safeLogo(null)]).toEqual(['/merchants/a.svg', null, null, null]);
  });

  it('a link naming another rfc or folio is not this ticket; a non-ticket document is refused', () => {
    const r = parse()!;
    expect(matchesLink(r, {})).toBe(true);
    expect(matchesLink(r, { rfc: 'eku9003173c9', folio: 'A1B2C3D4E5F6G' })).toBe(true);
    expect(matchesLink(r, { rfc: 'AAA010101AAA' })).toBe(false);
    expect(matchesLink(r, { folio: 'OTRO' })).toBe(false);
    const other = new DOMParser().parseFromString('<errors/>', 'application/xml') as unknown as Document;
    expect(readReceipt(other, { get: () => null }, 'X')).toBeNull();
  });
});

describe('receipt view', () => {
  it('loading, then the receipt with every field the spec lists and the 180×180 QR', () => {
    expect(renderToStaticMarkup(<ReceiptView state={{ kind: 'loading' }} />)).toContain(RECEIPT_TXT.loading);
    const html = renderToStaticMarkup(<ReceiptView state={{ kind: 'loaded', receipt: parse()! }} />);
    for (const s of ['Café Ñandú', '$121.00', 'Café &amp; pan', 'EKU9003173C9', 'A1B2C 3D4E5 F6G', '2026-11-20', '06700', 'Tarjeta de crédito', 'src="/merchants/cafe.svg"']) {
      expect(html).toContain(s);
    }
    expect(html).toMatch(/<img class="receipt__qr" src="\/api\/v3\/tickets\/K7Q2M9X4TB8C1ZP5\/qr.svg" alt="[^"]+" width="180" height="180"\/>/);
  });

  it('on failure the error flag under our logo and a way into the app, and no receipt data', () => {
    const html = renderToStaticMarkup(<ReceiptView state={{ kind: 'error' }} />);
    expect(html).toMatch(new RegExp(`<h1 id="receipt-problem" class="receipt-status receipt-error" role="alert" data-error="true">${RECEIPT_TXT.error}</h1>`));
    expect(html).toContain('<img class="receipt-problem__logo" src="/favicon.svg" alt="Cuentas Claras"');
    expect(html).toMatch(/<a class="btn btn--primary" href="\/#\/">Ir a Cuentas Claras<\/a>/);
    expect(html).not.toMatch(/receipt__|qr\.svg|<table/);
  });

  it('is reachable signed in or out (top-level rule 1)', () => {
    expect(guardRoute('/tickets?ref=K7Q2M9X4TB8C1ZP5', false)).toEqual({ kind: 'ok' });
    expect(guardRoute('/tickets?ref=K7Q2M9X4TB8C1ZP5', true)).toEqual({ kind: 'ok' });
  });
});
