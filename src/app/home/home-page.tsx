// The dashboard (spec §2 "/" and "home"): the selected account's tickets of the chosen month, from
// Dexie at once, refreshed from the server in the background; adding spending and income.
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { Suspense, useCallback, useEffect, useMemo, useReducer, useState, type ComponentType } from 'react';
import { accountDisplayName } from '../../domain/account';
import { FIRST_YEAR, monthKey, monthTitle } from '../../domain/dates';
import type { EntryKind } from '../../domain/spending-form';
import { db } from '../../offline/db';
import { getSession } from '../../offline/session';
import { TXT } from '../strings';
import { Button, buttonClass } from '../ui/button';
import { Icon } from '../ui/icon';
import { useOnChange } from '../ui/use-on-change';
import { useStableLiveQuery } from '../ui/use-stable-live-query';
import { SkeletonCard } from '../ui/skeleton';
import { DESKTOP_QUERY, useMediaQuery } from '../ui/use-media-query';
import { useLayout } from '../layout/layout-context';
import { DashboardTitle, DashboardToolbar, MonthList, PhoneBar, SyncNotices } from './dashboard-sections';
import { useInvoiceRefresh } from './use-invoice-refresh';
import { CompanyMembership } from './company-membership';
import { selectAllState, selectionReducer, ticketRow } from '../tickets/ticket-list-model';
import { MonthBalance } from '../tickets/month-balance';
import { queryMonthPage, querySelectableIds } from '../tickets/month-query';
import { SelectionActions } from '../tickets/selection-actions';
import { SpendingSummaryCard } from '../tickets/spending-summary';
import { useLookups } from '../tickets/use-lookups';
import { useMonthSync } from '../tickets/use-month-sync';
import '../tickets/tickets.css';
import './home.css';

const MONTH_PARAM = /^(\d{4})-(0[1-9]|1[0-2])$/;

/**
 * Shows an account's month: the import's 'Dónde quedaron' links, in the app or as '#/home?month=…&rfc=…'
 * (a new tab). An RFC that is not one of the user's accounts leaves the account as it is.
 */
function useOpenMonth(): (rfc: string, month: string) => void {
  const { accounts, selected, selectAccount, setPeriod } = useLayout();
  return useCallback(
    (rfc: string, month: string) => {
      const m = MONTH_PARAM.exec(month);
      if (!m || Number(m[1]) < FIRST_YEAR) return;
      const account = accounts?.find((a) => a.rfc === rfc);
      if (account && account.rfc !== selected?.rfc) selectAccount(account.diverza_client_id);
      setPeriod({ year: Number(m[1]), month: Number(m[2]) });
    },
    [accounts, selected, selectAccount, setPeriod],
  );
}

/** What the dashboard opens from other features, handed in by the composition root (screens.tsx). */
export interface DashboardPieces {
  /** 'Agregar gasto' / 'Agregar ingreso' (spending). */
  SpendingPanel: ComponentType<{ kind: EntryKind | null; onClose: () => void; rfc: string; username: string }>;
  /** 'Importar CFDIs' (imports). */
  ImportDialog: ComponentType<{ open: boolean; onClose: () => void; rfc: string; onImported: () => void; onOpenMonth?: (rfc: string, month: string) => void }>;
  /** Loads both; not needed to paint the month, so called after the first screen (and so precached offline). */
  preload: () => void;
}

export function HomePage(pieces: DashboardPieces) {
  const { accounts, selected, period, sync: accountSync, retrySync } = useLayout();
  const openMonth = useOpenMonth();
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as { month?: unknown; rfc?: unknown };
  const linkMonth = typeof search.month === 'string' ? search.month : '';
  const linkRfc = typeof search.rfc === 'string' ? search.rfc : '';
  const accountsReady = (accounts?.length ?? 0) > 0;
  // A month link is applied once the accounts are known, then dropped from the address: from then on the
  // month picker decides.
  useEffect(() => {
    if (!linkMonth || !accountsReady) return;
    openMonth(linkRfc, linkMonth);
    void navigate({ to: '/home', replace: true });
  }, [linkMonth, linkRfc, accountsReady, openMonth, navigate]);
  const loadingAccounts = accounts === undefined || (accounts.length === 0 && (accountSync.status === 'loading' || accountSync.status === 'idle'));

  if (loadingAccounts) {
    return (
      <main id="main" className="page">
        <SkeletonCard label={TXT.loading} lines={4} />
      </main>
    );
  }

  if (!selected) {
    if (accountSync.status === 'error') {
      return (
        <main id="main" className="page">
          <div className="card stack stack--start" role="alert">
            <h1>{accountSync.offline ? 'Sin conexión' : 'No pudimos cargar tus cuentas'}</h1>
            <p>{accountSync.offline ? 'Sin conexión — conéctate a internet para descargar tus RFC por primera vez en este teléfono.' : accountSync.message}</p>
            <Button variant="primary" onClick={retrySync}>
              {TXT.retry}
            </Button>
          </div>
        </main>
      );
    }
    return (
      <main id="main" className="page">
        <div className="card stack stack--start empty">
          <Icon name="building" />
          <h1>Aún no tienes un RFC registrado</h1>
          <p className="muted">Agrega tu RFC para pedir facturas de tus compras y llevar tus gastos e ingresos.</p>
          <Link to="/add-client" className={buttonClass('primary')}>
            Añadir RFC
          </Link>
        </div>
      </main>
    );
  }

  return <Dashboard key={selected.rfc} rfc={selected.rfc} accountName={accountDisplayName(selected)} year={period.year} month={period.month} onOpenMonth={openMonth} pieces={pieces} />;
}

function Dashboard({ rfc, accountName, year, month, onOpenMonth, pieces: { SpendingPanel, ImportDialog, preload } }: {
  rfc: string;
  accountName: string;
  year: number;
  month: number;
  onOpenMonth: (rfc: string, month: string) => void;
  pieces: DashboardPieces;
}) {
  const desktop = useMediaQuery(DESKTOP_QUERY);
  const { lookups, lists } = useLookups();
  const { sync, seen, retry } = useMonthSync(db, rfc, year, month);
  const [search, setSearch] = useState('');
  const searchLookups = search.trim() ? lookups : null;
  const [page, setPage] = useState(1);
  const [selected, dispatchSelection] = useReducer(selectionReducer, new Set<string>());
  const [panel, setPanel] = useState<EntryKind | null>(null);
  // Mounted from the first time it opens on, so closing keeps its slide-out and reset behaviour.
  const [panelUsed, setPanelUsed] = useState(false);
  if (panel && !panelUsed) setPanelUsed(true);
  // 'Importar CFDIs': mounted from its first opening on, so its rows keep following the uploads.
  const [importOpen, setImportOpen] = useState(false);
  const [importUsed, setImportUsed] = useState(false);
  const openImport = () => {
    setImportUsed(true);
    setImportOpen(true);
  };
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 1500));
    idle(preload);
  }, [preload]);
  const mk = monthKey(year, month);

  // Selection and paging start over on another month (spec §4); the account change remounts this.
  useOnChange(mk, () => {
    dispatchSelection({ type: 'reset' });
    setPage(1);
  });

  const result = useStableLiveQuery(
    () => queryMonthPage(db, { rfc, month: mk, search, page }, lookups),
    // Names matter only to a search: a refresh of companies or categories must not resubscribe
    // (and flash the skeleton) while nobody is searching.
    [rfc, mk, search, page, searchLookups],
  );
  const rows = useMemo(() => (result?.rows ?? []).map((t) => ticketRow(t, lookups)), [result, lookups]);
  useInvoiceRefresh(db, rfc, year, month, rows.some((r) => r.invoice?.pending));
  const selectable = useStableLiveQuery(() => querySelectableIds(db, { rfc, month: mk, search }, lookups), [rfc, mk, search, searchLookups]);
  const selectableIds = selectable ?? [];
  const allState = selectAllState(selected, selectableIds);
  const selectedCount = selected.size;
  const title = monthTitle(month);
  // Stable, so the memoised cards do not render again for it.
  const onToggle = useCallback((row: { id: string; selectable: boolean }) => dispatchSelection({ type: 'toggle', id: row.id, selectable: row.selectable }), []);

  const selectionActions = (compact: boolean) => (
    <SelectionActions selected={selected} companies={lookups.companies} year={year} compact={compact} onCleared={() => dispatchSelection({ type: 'reset' })} />
  );

  const listProps = {
    rows,
    lists,
    selected,
    onToggle,
    allState,
    canSelectAll: selectableIds.length > 0,
    onToggleAll: () => dispatchSelection({ type: 'toggle-all', selectableIds }),
    caption: `Movimientos de ${title.toLowerCase()} de ${year}`,
    onInvoiceChanged: retry,
  };

  return (
    <main id="main" className="page dashboard">
      <DashboardTitle title={title} accountName={accountName} rfc={rfc} sync={sync} />
      <CompanyMembership rfc={rfc} />

      <MonthBalance rfc={rfc} year={year} month={month} />

      <SyncNotices sync={sync} seen={seen} onRetry={retry} />

      <DashboardToolbar
        desktop={desktop}
        selectedCount={selectedCount}
        search={search}
        onImport={openImport}
        onAdd={setPanel}
        onSearch={(value: string) => {
          setSearch(value);
          setPage(1);
        }}
        selectionActions={selectionActions(false)}
      />

      <MonthList
        result={result}
        sync={sync}
        seen={seen}
        month={month}
        title={title}
        search={search}
        desktop={desktop}
        list={listProps}
        onAddExpense={() => setPanel('expense')}
        onPage={setPage}
      />

      {/* Once the month's rows (or its empty state) show: the table's placeholder is shorter than the
          table, and the card under it would be pushed down (a layout shift) when the rows arrive. */}
      {result !== undefined && !(result.monthTotal === 0 && sync.status === 'updating' && !seen) && (
        <SpendingSummaryCard rfc={rfc} year={year} month={month} />
      )}

      {/* On a phone the bar turns into the selection's actions while something is selected. */}
      {!desktop && <PhoneBar selectedCount={selectedCount} selectionActions={selectionActions(true)} onAdd={setPanel} onImport={openImport} />}

      {importUsed && (
        <Suspense fallback={null}>
          <ImportDialog
            open={importOpen}
            onClose={() => setImportOpen(false)}
            rfc={rfc}
            onImported={retry}
            onOpenMonth={(placeRfc, placeMonth) => {
              setImportOpen(false);
              onOpenMonth(placeRfc, placeMonth);
            }}
          />
        </Suspense>
      )}

      {panelUsed && (
        <Suspense fallback={null}>
          <SpendingPanel kind={panel} onClose={() => setPanel(null)} rfc={rfc} username={getSession()?.username ?? ''} />
        </Suspense>
      )}
    </main>
  );
}
