// Each CFDI type on its row, in the desktop table and the phone cards alike: one badge in words, the
// amount signed right (a credit note '-$1,234.00', never '+-'), no amount for a payment or a traslado, a
// broken seal in the spec's words, the findings marker, the foreign amount, and the CFDI view's content.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ticketRow, type NameLookups } from '../../../src/app/tickets/ticket-list-model';
import { TicketCards, TicketTable } from '../../../src/app/tickets/ticket-list';
import type { CategoryLists } from '../../../src/app/tickets/ticket-controls';
import { CfdiDetails } from '../../../src/app/tickets/cfdi-panel';
import type { Receipt, Ticket } from '../../../src/domain/ticket';
import { receipt, ticket } from './fixtures';

const lookups: NameLookups = { companies: new Map(), incomeCategories: new Map() };
const lists: CategoryLists = { expenseRows: [], expense: [], income: [] };
const U1 = '5FB2822E-396D-4725-8521-CDC4BDD20CCF';
const U2 = 'A1B2C3D4-0000-4000-8000-000000000002';

const cfdi = (id: string, r: Partial<Receipt>, over: Partial<Ticket> = {}) =>
  ticketRow(ticket({ ticket_id: id, ticket_status_name: 'facturado', company_short_name: 'cfdi', receipt: { ...receipt, uuid: U1, ...r }, ...over }), lookups);

const html = (List: typeof TicketTable, rows: ReturnType<typeof cfdi>[]) => renderToStaticMarkup(<List rows={rows} lists={lists} caption="Movimientos" />);
const text = (markup: string) => markup.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('CFDI rows', () => {
  const credit = cfdi('e', { tipo: 'E', details: { related: [{ type: '01', uuids: [U2] }] } }, { amount: '-1234.00', ticket_type_id: 3 });
  const payment = cfdi('p', { tipo: 'P', details: { pays: [{ uuid: U2, amount: '19228.88', currency: 'MXN', balance: '0', installment: 1 }] } }, { amount: '0.00' });
  const ppd = cfdi('i', { metodo_pago: 'PPD', payment: { status: 'parcial', balance: '1200' } }, { amount: '5000.00' });
  const broken = cfdi('s', { seal: 'invalido', findings: [{ code: 'CFDI40101', message: 'x' }, { code: 'CFDI40102', message: 'y' }] });
  const usd = cfdi('u', {}, { amount: '215.00', currency: 'USD', original_amount: '12.50' });
  const rows = [credit, payment, ppd, broken, usd];

  it('row model: the signed amount and the badge', () => {
    expect(credit.shownAmount).toBe('-$1,234.00');
    expect(credit.cfdi.badge?.text).toBe('Nota de crédito');
    expect(payment.shownAmount).toBe('—');
    expect(ppd.cfdi.badge).toMatchObject({ text: 'Pago parcial', note: '($1,200.00 por pagar)' });
    expect(broken.cfdi.findings).toBe(2);
    expect(usd.cfdi.foreign).toBe('12.50 USD');
  });

  for (const List of [TicketTable, TicketCards]) {
    it(`${List.name} shows each one's words, one badge a row`, () => {
      const markup = html(List, rows);
      const words = text(markup);
      expect(words).toContain('-$1,234.00');
      expect(words).not.toContain('+-');
      expect(words).toContain('Nota de crédito');
      expect(words).toContain('Complemento de pago');
      expect(words).toContain('Monto pagado: $19,228.88');
      expect(words).toContain('Sin monto');
      expect(words).not.toContain('$0.00');
      expect(words).toContain('Pago parcial ($1,200.00 por pagar)');
      expect(words).toContain('Sello inválido: el archivo fue alterado o no es auténtico');
      expect(words).toContain('2 observaciones');
      expect(words).toContain('12.50 USD');
      expect(markup.match(/class="cfdi-badge /g)).toHaveLength(3);
    });
  }

  it('an income credit note is not painted as income', () => {
    expect(html(TicketTable, [credit])).not.toContain('amount--income');
  });

  it('the CFDI view opens from rows with a CFDI only: the origin on the table, an action on the cards', () => {
    const manual = ticketRow(ticket(), lookups);
    expect(html(TicketTable, [credit, manual]).match(/aria-label="Ver CFDI de /g)).toHaveLength(1);
    // A card's CFDI line is itself the way in (the actions menu has 'Ver CFDI' too).
    expect(html(TicketCards, [credit, manual]).match(/<button type="button" class="cfdi-summary cfdi-summary--button">/g)).toHaveLength(1);
    expect(manual.cfdiView).toBeNull();
  });

  it('a cancelled CFDI\'s amount is struck through', () => {
    const cancelled = cfdi('c', { cancel_status: 'cancelada' });
    expect(html(TicketCards, [cancelled])).toContain('amount tabular amount--void');
    expect(text(html(TicketCards, [cancelled]))).toContain('Cancelada');
  });
});

describe('the CFDI view', () => {
  it('lists a credit note\'s related UUIDs, findings with codes, seal states and both UUIDs with their states', () => {
    const row = cfdi('x', {
      tipo: 'E',
      seal: 'valido',
      seal_sat: 'sin_verificar',
      findings: [{ code: 'CFDI40101', message: 'El campo Fecha no cumple con el patrón requerido.' }],
      details: { related: [{ type: '01', uuids: [U2] }] },
      replaces: [{ uuid: U2, cancel_status: 'cancelada' }],
    }, { amount: '-100.00' });
    const words = text(renderToStaticMarkup(<CfdiDetails view={row.cfdiView!} />));
    expect(words).toContain('Este CFDI tiene una observación');
    expect(words).toContain('CFDI40101 El campo Fecha no cumple con el patrón requerido.');
    expect(words).toContain(`Nota de crédito de los documentos relacionados ${U2}`);
    expect(words).toContain(`Este CFDI ${U1} vigente`);
    expect(words).toContain(`Sustituye a ${U2} cancelada`);
    expect(words).toContain('Sello del SAT sin verificar');
    expect(words).not.toContain('Sello inválido');
  });

  it('lists what a payment complement paid', () => {
    const row = cfdi('p', { tipo: 'P', details: { pays: [{ uuid: U2, amount: '19228.88', currency: 'MXN', balance: '0', installment: 1 }] } }, { amount: '0' });
    const words = text(renderToStaticMarkup(<CfdiDetails view={row.cfdiView!} />));
    expect(words).toContain(`${U2} Pagado $19,228.88 · Parcialidad 1 · Saldo $0.00`);
    expect(words).toContain('Monto pagado $19,228.88');
  });

  it('a broken seal is an alert in the spec\'s words', () => {
    const row = cfdi('s', { seal: 'invalido' });
    expect(renderToStaticMarkup(<CfdiDetails view={row.cfdiView!} />)).toContain('role="alert">Sello inválido: el archivo fue alterado o no es auténtico<');
  });
});
