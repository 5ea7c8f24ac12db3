// The dashboard's sections (spec §2 "/" and "home"): the month's title, the sync notices, the toolbar, the
// month's list (or its placeholder and empty states) and the phone's bottom bar. The page holds the state.
import { PeriodTitle } from '../tickets/period-title';
import type { ComponentProps, ReactNode } from 'react';
import type { queryMonthPage } from '../tickets/month-query';
import { emptyMonthText, noMatchesText } from '../tickets/ticket-list-model';
import { Pager } from '../tickets/pager';
import { TicketCards, TicketTable } from '../tickets/ticket-list';
import type { MonthSync } from '../tickets/use-month-sync';
import { TXT } from '../strings';
import { Button } from '../ui/button';
import { Icon } from '../ui/icon';
import { SearchField } from '../ui/search-field';
import { Skeleton } from '../ui/skeleton';

type MonthPage = Awaited<ReturnType<typeof queryMonthPage>>;

function TableSkeleton() {
  return (
    <div className="card stack" role="status" aria-label={TXT.loading}>
      {Array.from({ length: 5 }, (_, i) => (
        <div key={i} className="row" style={{ flexWrap: 'nowrap' }}>
          <Skeleton width={88} />
          <Skeleton width="40%" />
          <Skeleton width="20%" />
          <Skeleton width={72} />
        </div>
      ))}
    </div>
  );
}

/** The month's title and account, and 'Actualizando…' while the month is pulled. */
export function DashboardTitle({ title, accountName, rfc, sync }: { title: string; accountName: string; rfc: string; sync: MonthSync }) {
  return <PeriodTitle block="dashboard" title={title} accountName={accountName} rfc={rfc} updating={sync.status === 'updating'} />;
}

/** Offline with the month on the phone, or a pull that failed (with 'Reintentar'). */
export function SyncNotices({ sync, seen, onRetry }: { sync: MonthSync; seen: boolean | undefined; onRetry: () => void }) {
  return (
    <>
      {sync.status === 'offline' && seen && (
        <div className="notice notice--info dashboard__notice" role="status">
          Sin conexión — estos son los movimientos guardados en tu teléfono; los actualizaremos al reconectar.
        </div>
      )}
      {sync.status === 'error' && (
        <div className="notice notice--error row row--between dashboard__notice" role="alert">
          <span>{sync.message || 'No pudimos actualizar tus movimientos.'}</span>
          <Button variant="secondary" onClick={onRetry}>
            {TXT.retry}
          </Button>
        </div>
      )}
    </>
  );
}

/** The desktop's actions (import, add spending or income, the selection's), the selection count and the search. */
export function DashboardToolbar({ desktop, selectedCount, search, onImport, onAdd, onSearch, selectionActions }: {
  desktop: boolean;
  selectedCount: number;
  search: string;
  onImport: () => void;
  onAdd: (kind: 'expense' | 'income') => void;
  onSearch: (value: string) => void;
  selectionActions: ReactNode;
}) {
  return (
    <div className="toolbar">
      {desktop && (
        <div className="toolbar__actions">
          <Button variant="secondary" onClick={onImport}>
            <Icon name="upload" />
            {TXT.importTitle}
          </Button>
          <Button variant="primary" onClick={() => onAdd('expense')}>
            <Icon name="plus" />
            Agregar gasto
          </Button>
          <Button variant="secondary" onClick={() => onAdd('income')}>
            <Icon name="plus" />
            Agregar ingreso
          </Button>
          {selectionActions}
        </div>
      )}
      {selectedCount > 0 && (
        <span className="toolbar__count" role="status">
          {selectedCount === 1 ? '1 seleccionado' : `${selectedCount} seleccionados`}
        </span>
      )}
      <SearchField id="dashboard-search" value={search} onChange={onSearch} />
    </div>
  );
}

/**
 * The month's movements: a placeholder until Dexie answers (or while a month never seen is pulled), the
 * offline and empty states, 'no matches' for a search, else the table (desktop) or cards, and the pager.
 */
export function MonthList({ result, sync, seen, month, title, search, desktop, list, onAddExpense, onPage }: {
  result: MonthPage | undefined;
  sync: MonthSync;
  seen: boolean | undefined;
  month: number;
  title: string;
  search: string;
  desktop: boolean;
  list: ComponentProps<typeof TicketTable>;
  onAddExpense: () => void;
  onPage: (page: number) => void;
}) {
  if (result === undefined) return <TableSkeleton />;
  if (result.monthTotal === 0) {
    if (sync.status === 'updating' && !seen) return <TableSkeleton />;
    if (sync.status === 'offline' && !seen) {
      return (
        <div className="card stack empty" role="status">
          <Icon name="wifiOff" />
          <p>Sin conexión — los movimientos de {title.toLowerCase()} se cargarán cuando te conectes.</p>
        </div>
      );
    }
    return (
      <div className="card stack empty">
        <Icon name="plus" />
        <p>{emptyMonthText(month)}</p>
        <div>
          <Button variant="primary" onClick={onAddExpense}>
            Agregar gasto
          </Button>
        </div>
      </div>
    );
  }
  if (result.total === 0) {
    return (
      <div className="card empty" role="status">
        <p>{noMatchesText(search)}</p>
      </div>
    );
  }
  return (
    <>
      {desktop ? <TicketTable {...list} /> : <TicketCards {...list} />}
      <Pager page={result.page} total={result.total} onPage={onPage} />
    </>
  );
}

/** The phone's bottom bar: add spending or income and import, or the selection's actions while something is selected. */
export function PhoneBar({ selectedCount, selectionActions, onAdd, onImport }: {
  selectedCount: number;
  selectionActions: ReactNode;
  onAdd: (kind: 'expense' | 'income') => void;
  onImport: () => void;
}) {
  if (selectedCount > 0) return <div className="bottom-bar bottom-bar--selection">{selectionActions}</div>;
  return (
    <div className="bottom-bar">
      <Button variant="primary" onClick={() => onAdd('expense')}>
        Agregar gasto
      </Button>
      <Button variant="secondary" onClick={() => onAdd('income')}>
        Agregar ingreso
      </Button>
      {/* Short visible label so the bar keeps two rows at 360 px; the name still says it all. */}
      <Button variant="secondary" onClick={onImport} aria-label={TXT.importTitle}>
        <Icon name="upload" />
        {TXT.importShort}
      </Button>
    </div>
  );
}
