// The company expense view's model: the title, the charts' series from the stats (top 5
// plus 'Otros'), select-all, and the review the collaborator sees on the dashboard row and card.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ticketRow, type NameLookups } from '../../../src/app/tickets/ticket-list-model';
import { TicketCards, TicketTable } from '../../../src/app/tickets/ticket-list';
import type { CategoryLists } from '../../../src/app/tickets/ticket-controls';
import { CompanyTickets } from '../../../src/app/company-view/company-tickets';
import type { CompanyStats } from '../../../src/domain/company';
import {
  batches, categorySlices, companyViewTitle, departmentSlices, keepListed, monthlyBars, monthSelection, monthTotal, reviewOf, toggleAll, topList,
} from '../../../src/domain/company-view';
import { companyReportName } from '../../../src/domain/csv-report';
import { ticket } from '../tickets/fixtures';

const stats = (over: Partial<CompanyStats> = {}): CompanyStats => ({
  monthly: Array.from({ length: 12 }, (_, i) => ({ month: `2026-${String(i + 1).padStart(2, '0')}`, sum: i === 2 ? 1000 : i === 1 ? 50.5 : 0 })),
  departments: [],
  categories: [],
  venues: [],
  ...over,
});

describe('company view model', () => {
  it('titles the screen as the spec does and names the CSV by month and year', () => {
    expect(companyViewTitle(3)).toBe('Gastos por colaborador de Marzo');
    expect(companyViewTitle(12)).toBe('Gastos por colaborador de Diciembre');
    expect(companyReportName(3, 2026)).toBe('reporte-gastos-3-2026.csv');
  });

  it('turns the monthly sums into 12 bars and reads the month total', () => {
    const bars = monthlyBars(stats());
    expect(bars).toHaveLength(12);
    expect(bars[1]).toEqual({ month: 2, label: 'Feb', value: 50.5 });
    expect(monthTotal(stats(), 3)).toBe(1000);
    expect(monthTotal(stats({ monthly: [] }), 3)).toBe(0);
  });

  it("keeps the categories' top 5 and puts the rest of the month's total in 'Otros'", () => {
    const categories = [
      { label: 'A', value: 400 }, { label: 'B', value: 200 }, { label: 'C', value: 100 }, { label: 'D', value: 50 }, { label: 'E', value: 25 },
    ];
    const slices = categorySlices(stats({ categories }), 1000);
    expect(slices.map((s) => s.label)).toEqual(['A', 'B', 'C', 'D', 'E', 'Otros']);
    expect(slices[5]!.value).toBe(225);
    // Nothing left: no 'Otros' slice.
    expect(categorySlices(stats({ categories: [{ label: 'A', value: 1000 }] }), 1000).map((s) => s.label)).toEqual(['A']);
  });

  it("groups departments beyond 5 into 'Otros' together with the tickets without one", () => {
    const departments = [
      { label: 'Ventas', value: 60 }, { label: 'Otros', value: 5 }, { label: 'Compras', value: 50 }, { label: 'TI', value: 40 },
      { label: 'Legal', value: 30 }, { label: 'RH', value: 20 }, { label: 'Finanzas', value: 10 },
    ];
    const slices = departmentSlices(stats({ departments }));
    expect(slices.map((s) => s.label)).toEqual(['Ventas', 'Compras', 'TI', 'Legal', 'RH', 'Otros']);
    expect(slices[5]!.value).toBe(15);
  });

  it('gives each top item its share of the month', () => {
    expect(topList([{ label: 'Oxxo', value: 250 }], 1000)).toEqual([{ label: 'Oxxo', value: 250, share: 25 }]);
  });

  it('select-all picks every listed ticket, then none; a reload keeps only listed ids', () => {
    expect([...toggleAll(new Set(), ['a', 'b'])]).toEqual(['a', 'b']);
    expect([...toggleAll(new Set(['a']), ['a', 'b'])]).toEqual(['a', 'b']);
    expect([...toggleAll(new Set(['a', 'b']), ['a', 'b'])]).toEqual([]);
    expect([...keepListed(new Set(['a', 'gone']), ['a', 'b'])]).toEqual(['a']);
  });

  it('offers the whole month once the page is wholly selected and the month has more; then says how many', () => {
    const page = ['a', 'b'];
    expect(monthSelection(new Set(['a']), page, 120, false)).toEqual({ kind: 'none' });
    expect(monthSelection(new Set(page), page, 2, false)).toEqual({ kind: 'none' });
    expect(monthSelection(new Set(), [], 0, false)).toEqual({ kind: 'none' });
    expect(monthSelection(new Set(page), page, 120, false)).toEqual({
      kind: 'offer',
      text: 'Se seleccionaron los 2 comprobantes de esta página.',
      action: 'Seleccionar los 120 comprobantes del mes',
    });
    const all = new Set(Array.from({ length: 120 }, (_, i) => `t${i}`));
    expect(monthSelection(all, page, 120, true)).toEqual({ kind: 'whole', text: 'Se seleccionaron los 120 comprobantes del mes.', action: 'Quitar la selección' });
    all.delete('t7');
    expect(monthSelection(all, page, 120, true)).toMatchObject({ kind: 'whole', text: 'Se seleccionaron 119 de los 120 comprobantes del mes.' });
  });

  it('sends a large selection in batches the server accepts, in order', () => {
    const ids = Array.from({ length: 12_001 }, (_, i) => i);
    const sent = batches(ids);
    expect(sent.map((b) => b.length)).toEqual([5000, 5000, 2001]);
    expect(sent.flat()).toEqual(ids);
    expect(batches([])).toEqual([]);
  });

  it("reads the review from the ticket, else from its status", () => {
    expect(reviewOf(ticket({ ticket_status_name: 'rechazado', review: { decision: 'rechazado', reason: 'Sin factura' } }))).toEqual({ decision: 'rechazado', reason: 'Sin factura' });
    expect(reviewOf(ticket({ ticket_status_name: 'aprobado' }))).toEqual({ decision: 'aprobado', reason: null });
    expect(reviewOf(ticket({ ticket_status_name: 'no facturable' }))).toBeNull();
  });
});

describe("the collaborator's dashboard shows the review", () => {
  const lookups: NameLookups = { companies: new Map(), incomeCategories: new Map() };
  const lists: CategoryLists = { expenseRows: [], expense: [], income: [] };
  const rejected = ticketRow(ticket({ ticket_status_name: 'rechazado', review: { decision: 'rechazado', reason: 'Falta la factura' } }), lookups);
  const approved = { ...ticketRow(ticket({ ticket_status_name: 'aprobado', review: { decision: 'aprobado', reason: null } }), lookups), id: 'otro' };

  it('on the table and on the cards, in words, with the rejection reason', () => {
    expect(rejected.review).toEqual({ decision: 'rechazado', reason: 'Falta la factura' });
    for (const List of [TicketTable, TicketCards]) {
      const html = renderToStaticMarkup(<List rows={[rejected, approved]} lists={lists} caption="Movimientos" />);
      expect(html).toContain('<span class="review-badge__word">Rechazado</span>');
      expect(html).toContain('Falta la factura');
      expect(html).toContain('<span class="review-badge__word">Aprobado</span>');
    }
  });

  it('the manager table shows each ticket with collaborator, department and state', () => {
    const t = { ...ticket({ ticket_status_name: 'rechazado', review: { decision: 'rechazado' as const, reason: 'Duplicado' } }), username: 'ana', user_area: '' };
    const html = renderToStaticMarkup(<CompanyTickets tickets={[t]} selected={new Set([t.ticket_id])} onToggle={() => undefined} onToggleAll={() => undefined} companies={new Map()} />);
    expect(html).toContain('ana');
    expect(html).toContain('Sin departamento');
    expect(html).toContain('Duplicado');
    expect(html).toMatch(/checked=""/);
  });

  it('a collaborator\'s credit note and a CFDI with a broken seal say so in the dashboard\'s words', () => {
    const receipt = {
      receipt_id: 'r', rfc_issuer: 'EKU9003173C9', name_issuer: 'X', rfc_receiver: 'XIQB891116QE4', emission_date: '2026-11-20',
      uuid: 'u', imp_tras: '0', imp_ret: '0', metodo_pago: 'PUE', numctapago: '',
    };
    const credit = ticket({ ticket_id: 'c', amount: '-50.00', receipt: { ...receipt, tipo: 'E' } });
    const broken = ticket({ ticket_id: 's', receipt: { ...receipt, seal: 'invalido' } });
    const html = renderToStaticMarkup(<CompanyTickets tickets={[credit, broken]} selected={new Set()} onToggle={() => undefined} onToggleAll={() => undefined} companies={new Map()} />);
    expect(html).toContain('Nota de crédito');
    expect(html).toContain('-$50.00');
    expect(html).toContain('Sello inválido: el archivo fue alterado o no es auténtico');
  });

  it('names each collaborator as the company invited them, falling back to the username', () => {
    const named = { ...ticket({ ticket_id: 'n', username: 'ana.lopez' }), user_name: 'Ana <b>López</b>' };
    const older = ticket({ ticket_id: 'o', username: 'beto99' });
    const html = renderToStaticMarkup(<CompanyTickets tickets={[named, older]} selected={new Set()} onToggle={() => undefined} onToggleAll={() => undefined} companies={new Map()} />);
    expect(html).toContain('Ana &lt;b&gt;López&lt;/b&gt;');
    expect(html).not.toContain('ana.lopez');
    expect(html).toContain('beto99');
  });
});
