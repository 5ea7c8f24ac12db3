// The dashboard's sections in each state (static render): the placeholder until Dexie answers, the empty
// and offline months, a search with no matches, the sync notices and the phone's bottom bar.
import type { ComponentProps } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DashboardTitle, MonthList, PhoneBar, SyncNotices } from '../../../src/app/home/dashboard-sections';
import type { TicketTable } from '../../../src/app/tickets/ticket-list';
import { emptyMonthText, noMatchesText } from '../../../src/app/tickets/ticket-list-model';

const noop = () => undefined;
const page = (monthTotal: number, total: number) => ({ rows: [], total, monthTotal, page: 1 });
const list = { rows: [], lists: {}, caption: '' } as unknown as ComponentProps<typeof TicketTable>;
const month = (props: Partial<ComponentProps<typeof MonthList>>) =>
  renderToStaticMarkup(
    <MonthList result={undefined} sync={{ status: 'done' }} seen month={3} title="Marzo" search="" desktop list={list} onAddExpense={noop} onPage={noop} {...props} />,
  );

describe('dashboard sections', () => {
  it('shows the placeholder until the month is read, and while a month never seen is pulled', () => {
    expect(month({})).toContain(`role="status"`);
    expect(month({})).toContain('card stack');
    expect(month({ result: page(0, 0), sync: { status: 'updating' }, seen: false })).not.toContain(emptyMonthText(3));
  });

  it('tells an empty month (with Agregar gasto), an offline one never seen, and a search with no matches apart', () => {
    const empty = month({ result: page(0, 0) });
    expect(empty).toContain(emptyMonthText(3));
    expect(empty).toContain('Agregar gasto');
    expect(month({ result: page(0, 0), sync: { status: 'offline' }, seen: false })).toContain('Sin conexión — los movimientos de marzo se cargarán cuando te conectes.');
    expect(month({ result: page(5, 0), search: ' oxxo ' })).toContain(noMatchesText(' oxxo '));
  });

  it('says it is updating, offline with the month on the phone, or that the pull failed with Reintentar', () => {
    expect(renderToStaticMarkup(<DashboardTitle title="Marzo" accountName="Ana" rfc="XAXX010101000" sync={{ status: 'updating' }} />)).toContain('Actualizando…');
    expect(renderToStaticMarkup(<SyncNotices sync={{ status: 'offline' }} seen onRetry={noop} />)).toContain('estos son los movimientos guardados en tu teléfono');
    const failed = renderToStaticMarkup(<SyncNotices sync={{ status: 'error', message: '' }} seen onRetry={noop} />);
    expect(failed).toContain('No pudimos actualizar tus movimientos.');
    expect(failed).toContain('role="alert"');
  });

  it("the phone's bar adds spending or income and imports, or shows the selection's actions", () => {
    const bar = renderToStaticMarkup(<PhoneBar selectedCount={0} selectionActions={null} onAdd={noop} onImport={noop} />);
    expect(bar).toContain('Agregar gasto');
    expect(bar).toContain('Agregar ingreso');
    expect(renderToStaticMarkup(<PhoneBar selectedCount={2} selectionActions={<span>acciones</span>} onAdd={noop} onImport={noop} />)).toContain(
      '<div class="bottom-bar bottom-bar--selection"><span>acciones</span></div>',
    );
  });
});
