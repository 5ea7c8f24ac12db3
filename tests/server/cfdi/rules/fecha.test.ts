// CFDI40101's second half: the Fecha is the local time where the CFDI is issued. Our invoices write
// it at LugarExpedicion's zone (five Mexican zones, with the border's US daylight time), and the rule
// engine refuses a Fecha in the future there, or (before stamping) one older than a PAC accepts.
import { describe, expect, it } from 'vitest';
import { buildCfdi } from '../../../../src/server/cfdi/build';
import { checkCfdi40 } from '../../../../src/server/cfdi/rules';
import { openTestCsd, sealCfdi } from '../../../../src/server/cfdi/seal';
import type { InvoiceReceiver } from '../../../../src/server/db/schema';
import { invoiceInput } from '../../../../src/server/invoicing/build-invoice';
import type { Issuer, MerchantTicketRow } from '../../../../src/server/invoicing/ports';
import { fixture, mutate } from './mutate';

const ISSUER: Issuer = {
  id: 1, shortName: 'eku', name: 'Escuela Kemper', logo: '', rfc: 'EKU9003173C9', legalName: 'ESCUELA KEMPER URGATE', taxRegime: '601', postalCode: '06600',
};
const RECEIVER: InvoiceReceiver = { rfc: 'XIQB891116QE4', nombre: 'BERENICE XIMO QUEZADA', codigo_postal: '88965', regimen_fiscal: '612', uso_cfdi: 'G03' };

function ticketAt(postalCode: string): MerchantTicketRow {
  const row: Pick<MerchantTicketRow, 'items' | 'total' | 'formaPago' | 'postalCode' | 'ticketNumber'> = {
    items: [{ description: 'Café americano', quantity: '2', unit_price: '43.10', clave_prod_serv: '50202306', clave_unidad: 'H87', iva: 'IVA16' }],
    total: '86.20', formaPago: '04', postalCode, ticketNumber: 'TK-1',
  };
  return row as MerchantTicketRow;
}

/** An invoice issued at `now` by a branch at that postal code, sealed with SAT's test CSD. */
function issue(postalCode: string, now: Date): string {
  const input = invoiceInput({ requestId: '0b7c5d1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e', issuer: ISSUER, receiver: RECEIVER, tickets: [ticketAt(postalCode)], now });
  return sealCfdi(input, openTestCsd('EKU9003173C9')).xml;
}
const fechaOf = (xml: string) => /\sFecha="([^"]+)"/.exec(xml)![1];

const SUMMER = new Date('2026-07-01T18:00:00Z');
const WINTER = new Date('2026-01-15T18:00:00Z');
const ZONES = [
  { place: 'Tijuana', cp: '22000', summer: '2026-07-01T11:00:00', winter: '2026-01-15T10:00:00' },
  { place: 'Ciudad Juárez', cp: '32000', summer: '2026-07-01T12:00:00', winter: '2026-01-15T11:00:00' },
  { place: 'Culiacán', cp: '80000', summer: '2026-07-01T11:00:00', winter: '2026-01-15T11:00:00' },
  { place: 'Cancún', cp: '77500', summer: '2026-07-01T13:00:00', winter: '2026-01-15T13:00:00' },
  { place: 'Ciudad de México', cp: '06600', summer: '2026-07-01T12:00:00', winter: '2026-01-15T12:00:00' },
];

describe('the Fecha of the invoices we issue', () => {
  it.each(ZONES)('a merchant in $place ($cp) writes its local time, and the invoice passes SAT\'s rules', ({ cp, summer, winter }) => {
    const july = issue(cp, SUMMER);
    expect(fechaOf(july)).toBe(summer);
    expect(july).toContain(`LugarExpedicion="${cp}"`);
    expect(checkCfdi40(july, { now: SUMMER })).toEqual([]);
    const january = issue(cp, WINTER);
    expect(fechaOf(january)).toBe(winter);
    expect(checkCfdi40(january, { now: WINTER })).toEqual([]);
  });

  it('a Date given to the CFDI builder is written at LugarExpedicion too', () => {
    const input = invoiceInput({ requestId: '0b7c5d1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e', issuer: ISSUER, receiver: RECEIVER, tickets: [ticketAt('22000')], now: SUMMER });
    const csd = openTestCsd('EKU9003173C9');
    expect(fechaOf(buildCfdi({ ...input, fecha: SUMMER }, csd))).toBe('2026-07-01T11:00:00');
  });
});

describe('CFDI40101: the Fecha judged at the place of issue', () => {
  const codes = (xml: string, now: Date) => checkCfdi40(xml, { now }).map((f) => f.code);

  it('Mexico City time on a Tijuana invoice is in the future there', () => {
    const xml = issue('22000', SUMMER).replace(/\sFecha="[^"]+"/, ' Fecha="2026-07-01T12:00:00"');
    expect(codes(xml, SUMMER)).toContain('CFDI40101');
    expect(checkCfdi40(xml, { now: SUMMER }).find((f) => f.code === 'CFDI40101')?.message).toMatch(/futuro/);
    // An hour later it is no longer in the future (the broken Sello is another rule's finding).
    expect(codes(xml, new Date(SUMMER.getTime() + 3_600_000))).not.toContain('CFDI40101');
  });

  it('a few minutes of clock difference are tolerated, more are not', () => {
    const xml = issue('06600', SUMMER);
    expect(codes(xml, new Date(SUMMER.getTime() - 4 * 60_000))).not.toContain('CFDI40101');
    expect(codes(xml, new Date(SUMMER.getTime() - 6 * 60_000))).toContain('CFDI40101');
  });

  it('before stamping, a Fecha older than 72 hours is refused; a CFDI judged after the fact keeps its old Fecha', () => {
    const sealed = issue('77500', SUMMER);
    const before = (hours: number) => checkCfdi40(sealed, { now: new Date(SUMMER.getTime() + hours * 3_600_000), beforeStamping: true });
    expect(before(71)).toEqual([]);
    const late = before(73);
    expect(late.map((f) => f.code)).toEqual(['CFDI40101']);
    expect(late[0]!.message).toMatch(/72 horas/);
    expect(codes(sealed, new Date(SUMMER.getTime() + 73 * 3_600_000))).toEqual([]);
    expect(codes(fixture('cfdi40-ingreso-eku-descuento-stamped.xml'), new Date('2026-11-01T00:00:00Z'))).toEqual([]);
  });

  it('the pattern: no offset, no fraction, a real month', () => {
    const stamped = fixture('cfdi40-ingreso-eku-descuento-stamped.xml');
    const now = new Date('2025-03-01T00:00:00Z');
    for (const bad of ['2025-02-19T08:32:29-06:00', '2025-02-19T08:32:29.000', '2025-13-19T08:32:29', '1999-02-19T08:32:29']) {
      expect(codes(mutate(stamped, (d) => d.set(d.root, { Fecha: bad })), now)).toContain('CFDI40101');
    }
  });
});
