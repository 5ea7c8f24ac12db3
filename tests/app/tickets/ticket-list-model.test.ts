import { describe, expect, it } from 'vitest';
import {
  clampPage, emptyMonthText, matchesSearch, pageCount, pageLabel, pageSlice, rowLinks, selectAllState,
  selectionReducer, ticketRow, type NameLookups,
} from '../../../src/app/tickets/ticket-list-model';
import { receipt, ticket } from './fixtures';

const lookups: NameLookups = {
  companies: new Map([['oxxo', 'OXXO'], ['manual', 'Registro manual'], ['cfdi', 'Factura importada'], ['autozone', 'Autozone']]),
  incomeCategories: new Map([[2, 'Honorarios']]),
};

describe('search', () => {
  const t = ticket({ company_short_name: 'oxxo', ticket_number: 'A-778', note: 'Café con crédito', amount: '1234.50' });

  it('matches origin name, ticket number, category, note and amount, ignoring case and accents', () => {
    expect(matchesSearch(t, 'oxxo', lookups)).toBe(true);
    expect(matchesSearch(t, 'a-778', lookups)).toBe(true);
    expect(matchesSearch(t, 'alimentos', lookups)).toBe(true);
    expect(matchesSearch(t, 'credito', lookups)).toBe(true);
    expect(matchesSearch(t, '1234.5', lookups)).toBe(true);
    expect(matchesSearch(t, '$1,234.50', lookups)).toBe(true);
    expect(matchesSearch(t, 'gasolina', lookups)).toBe(false);
  });

  it('an empty query matches everything', () => {
    expect(matchesSearch(t, '   ', lookups)).toBe(true);
  });

  it('income rows are found by their income category', () => {
    const income = ticket({ ticket_type_id: 4, tags: [], income_meta_tag_id: 2 });
    expect(matchesSearch(income, 'honorarios', lookups)).toBe(true);
  });
});

describe('paging', () => {
  it('10 rows a page and "Página x de y"', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(10)).toBe(1);
    expect(pageCount(11)).toBe(2);
    expect(pageLabel(2, 25)).toBe('Página 2 de 3');
    expect(pageSlice(Array.from({ length: 25 }, (_, i) => i), 3)).toEqual([20, 21, 22, 23, 24]);
  });

  it('clamps the page when the list shrinks', () => {
    expect(clampPage(5, 12)).toBe(2);
    expect(clampPage(0, 12)).toBe(1);
    expect(pageLabel(4, 3)).toBe('Página 1 de 1');
  });

  it('says the month is empty in running-text Spanish', () => {
    expect(emptyMonthText(11)).toBe('Aún no hay movimientos en noviembre. Agrega tu primer gasto.');
  });
});

describe('row model', () => {
  it('shows the spec columns of an expense without receipt', () => {
    const row = ticketRow({ ...ticket({ note: 'comida' }), syncState: 'pending' }, lookups);
    expect(row).toMatchObject({
      date: '2026-11-20',
      origin: 'comida',
      categoryKind: 'expense',
      categoryValue: '1',
      categoryLabel: 'Alimentos y bebidas',
      amount: '$120.50',
      income: false,
      paymentMethod: '—',
      note: 'comida',
      status: 'not-invoiceable',
      statusLabel: 'No facturable',
      pendingSync: true,
      selectable: true,
      links: { pdf: null, xml: null, image: null },
    });
  });

  it('income rows use the income category and are marked as income', () => {
    const row = ticketRow(ticket({ ticket_type_id: 4, ticket_status_name: 'ingreso no facturable', tags: [], income_meta_tag_id: 2 }), lookups);
    expect(row).toMatchObject({ categoryKind: 'income', categoryValue: '2', categoryLabel: 'Honorarios', income: true, selectable: false });
  });

  it('guardado, pendiente and Interno show as pending', () => {
    for (const name of ['guardado', 'pendiente', 'Interno']) {
      expect(ticketRow(ticket({ ticket_status_name: name }), lookups).statusLabel).toBe('Pendiente');
    }
  });

  it('receipt rows offer PDF and XML, and the image when there is one, as files to sign a link for (no token, no URL)', () => {
    const t = ticket({ ticket_id: 'T 1', receipt, ticket_status_name: 'facturado', include_ticket_image: true });
    expect(rowLinks(t)).toEqual({
      pdf: { kind: 'receipt_pdf', id: 'r-1' },
      xml: { kind: 'receipt_xml', id: 'r-1' },
      image: { kind: 'ticket_image', id: 'T 1' },
    });
    expect(rowLinks(ticket({ include_ticket_image: false }))).toEqual({ pdf: null, xml: null, image: null });
    expect(ticketRow(t, lookups).paymentMethod).toBe('PUE');
  });

  it('an uncategorised expense shows "Sin Categoría"', () => {
    expect(ticketRow(ticket({ tags: [] }), lookups)).toMatchObject({ categoryValue: '', categoryLabel: 'Sin Categoría' });
  });
});

describe('selection (spec §4)', () => {
  it('ignores rows that are not selectable', () => {
    const s = selectionReducer(new Set(), { type: 'toggle', id: 'a', selectable: false });
    expect(s.size).toBe(0);
  });

  it('toggles selectable rows', () => {
    const one = selectionReducer(new Set(), { type: 'toggle', id: 'a', selectable: true });
    expect([...one]).toEqual(['a']);
    expect(selectionReducer(one, { type: 'toggle', id: 'a', selectable: true }).size).toBe(0);
  });

  it('select-all picks only the selectable filtered ids, and clears when all are selected', () => {
    const all = selectionReducer(new Set(['z']), { type: 'toggle-all', selectableIds: ['a', 'b'] });
    expect([...all].sort()).toEqual(['a', 'b']);
    expect(selectAllState(all, ['a', 'b'])).toBe('all');
    expect(selectionReducer(all, { type: 'toggle-all', selectableIds: ['a', 'b'] }).size).toBe(0);
    expect(selectAllState(new Set(['a']), ['a', 'b'])).toBe('some');
    expect(selectAllState(new Set(), [])).toBe('none');
  });

  it('resets (month or RFC change)', () => {
    expect(selectionReducer(new Set(['a']), { type: 'reset' }).size).toBe(0);
  });
});

describe('row titles people can scan', () => {
  it('a manual entry is titled by its note (first line), else by its category, never "Registro manual" when it says more', () => {
    expect(ticketRow(ticket({ note: '  Comida con Ana \nsegunda línea' }), lookups).origin).toBe('Comida con Ana');
    expect(ticketRow(ticket({ note: '' }), lookups).origin).toBe('Alimentos y bebidas');
    expect(ticketRow(ticket({ ticket_type_id: 4, tags: [], income_meta_tag_id: 2 }), lookups).origin).toBe('Honorarios');
    expect(ticketRow(ticket({ note: '   ', tags: [] }), lookups).origin).toBe('Registro manual');
  });

  it('the note we wrote for a foreign amount does not become the title: the category does', () => {
    const row = ticketRow(ticket({ note: '12.50 USD al tipo de cambio 17.25', currency: 'USD', original_amount: '12.50', amount: '215.63' }), lookups);
    expect(row.origin).toBe('Alimentos y bebidas');
  });

  it('an invoiced merchant ticket shows the brand, not the legal name on its CFDI (still found by either)', () => {
    const t = ticket({
      company_short_name: 'autozone', ticket_status_name: 'facturado',
      receipt: { ...receipt, name_issuer: 'AUTOZONE DE MEXICO S DE RL DE CV', rfc_issuer: 'AME970109GW0' },
    });
    expect(ticketRow(t, lookups).origin).toBe('Autozone');
    expect(matchesSearch(t, 'autozone de mexico', lookups)).toBe(true);
  });

  it('an imported CFDI shows the counterparty by name: the issuer of a spending, the receiver of an income', () => {
    const spending = ticket({ company_short_name: 'cfdi', receipt: { ...receipt, name_issuer: 'Cadena Comercial Oxxo', rfc_issuer: 'CCO8605231N4' } });
    expect(ticketRow(spending, lookups).origin).toBe('Cadena Comercial Oxxo');
    const income = ticket({
      company_short_name: 'cfdi', ticket_type_id: 3, tags: [],
      receipt: { ...receipt, rfc_issuer: 'LOVA850101AB1', rfc_receiver: 'EKU9003173C9', name_receiver: 'ESCUELA KEMPER URGATE' },
    });
    expect(ticketRow(income, lookups).origin).toBe('ESCUELA KEMPER URGATE');
    // Income the account received (a payroll CFDI): the other party is its issuer, never the account itself.
    const payroll = ticket({
      company_short_name: 'cfdi', ticket_type_id: 3, tags: [],
      receipt: { ...receipt, rfc_issuer: 'EKU9003173C9', name_issuer: 'ESCUELA KEMPER URGATE', rfc_receiver: 'LOVA850101AB1', name_receiver: 'ANA LOPEZ' },
    });
    expect(ticketRow(payroll, lookups).origin).toBe('ESCUELA KEMPER URGATE');
    // An older server without the receiver's name: the RFC is what there is.
    const old = ticket({ company_short_name: 'cfdi', ticket_type_id: 3, tags: [], receipt: { ...receipt, rfc_issuer: 'LOVA850101AB1', rfc_receiver: 'EKU9003173C9' } });
    expect(ticketRow(old, lookups).origin).toBe('EKU9003173C9');
  });

  it('a foreign-currency row carries its original amount beside the pesos', () => {
    const row = ticketRow(ticket({ amount: '215.63', currency: 'USD', original_amount: '12.50' }), lookups);
    expect(row.shownAmount).toBe('$215.63');
    expect(row.cfdi.foreign).toBe('12.50 USD');
    expect(ticketRow(ticket({ currency: 'MXN', original_amount: null }), lookups).cfdi.foreign).toBeNull();
  });
});
