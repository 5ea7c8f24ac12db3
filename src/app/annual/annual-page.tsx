// The annual view (spec §2 "annual"): for the selected account and the top bar's year, (1) Gastos and
// Ingresos by month with the year's Ingresos, Gastos and Balance beside it, (2) spending by category
// (donut, top categories and establishments against the previous year), (3) the year's tickets with
// their row controls and the dashboard's selection actions (spec §2 "personal yearly variant").
// Reloads when the account or the year changes; opens offline for years pulled.
import { PeriodTitle } from '../tickets/period-title';
import { Link } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import { accountDisplayName } from '../../domain/account';
import { seriesBalance } from '../../domain/analytics';
import { monthKey } from '../../domain/dates';
import { mexicoCityDate } from '../../domain/mexico-time';
import { db } from '../../offline/db';
import { hasAmounts, lastMonthOf } from '../charts/chart-model';
import { IncomeExpenseChart, preloadCharts } from '../charts/charts';
import { noMatchesText, selectAllState, selectionReducer, ticketRow } from '../tickets/ticket-list-model';
import { BalanceFigures } from '../tickets/month-balance';
import { queryMonthPage, querySelectableIds } from '../tickets/month-query';
import { SelectionActions } from '../tickets/selection-actions';
import { SpendingBreakdownView, SpendingSkeleton, useCompanyNames } from '../tickets/spending-summary';
import { TicketCards, TicketTable } from '../tickets/ticket-list';
import { useLookups } from '../tickets/use-lookups';
import { useLayout } from '../layout/layout-context';
import { TXT } from '../strings';
import { Button, buttonClass } from '../ui/button';
import { Icon } from '../ui/icon';
import { useOnChange } from '../ui/use-on-change';
import { useStableLiveQuery } from '../ui/use-stable-live-query';
import { Skeleton, SkeletonCard } from '../ui/skeleton';
import { SearchField } from '../ui/search-field';
import { DESKTOP_QUERY, useMediaQuery } from '../ui/use-media-query';
import { useYearFigures, useYearSync, type FiguresState, type YearSync } from './use-annual';
import '../tickets/tickets.css';
import './annual.css';
import { Pager } from '../tickets/pager';

export function AnnualPage() {
  const { accounts, selected, period, sync } = useLayout();
  if (!selected) {
    const loading = accounts === undefined || (accounts.length === 0 && (sync.status === 'loading' || sync.status === 'idle'));
    return (
      <main id="main" className="page">
        {loading ? (
          <SkeletonCard label={TXT.loading} lines={4} />
        ) : (
          <div className="card stack empty">
            <Icon name="building" />
            <h1>Aún no tienes un RFC registrado</h1>
            <p className="muted">Agrega tu RFC para ver tus ingresos y gastos del año.</p>
            <Link to="/add-client" className={buttonClass('primary')}>
              Añadir RFC
            </Link>
          </div>
        )}
      </main>
    );
  }
  return <Annual key={selected.rfc} rfc={selected.rfc} accountName={accountDisplayName(selected)} year={period.year} />;
}

function Notices({ sync, figures, seen, onRetry }: { sync: YearSync; figures: FiguresState; seen: boolean | undefined; onRetry: () => void }) {
  const retry = (
    <Button variant="secondary" onClick={onRetry}>
      {TXT.retry}
    </Button>
  );
  if (sync.status === 'offline' && seen) {
    return (
      <div className="notice notice--info annual__notice" role="status">
        {TXT.annualOffline}
      </div>
    );
  }
  const stale = figures.kind === 'ready' && figures.notice === 'stale';
  if (sync.status === 'error' || stale) {
    return (
      <div className="notice notice--error row row--between annual__notice" role="alert">
        <span>{sync.status === 'error' && sync.message ? sync.message : TXT.annualStale}</span>
        {retry}
      </div>
    );
  }
  return null;
}

/** As tall as the chart it stands for (legend, plot, table toggle), so nothing below moves. */
function ChartSkeleton() {
  return (
    <div className="annual__chart-skeleton" role="status" aria-label={TXT.loading}>
      <Skeleton width="40%" height={20} />
      <Skeleton width="100%" height="100%" />
    </div>
  );
}

function Figures({ state, year, onRetry }: { state: FiguresState; year: number; onRetry: () => void }) {
  if (state.kind === 'unseen-offline' || state.kind === 'error') {
    const offline = state.kind === 'unseen-offline';
    return (
      <section className="card stack empty annual__wide" role={offline ? 'status' : 'alert'}>
        <Icon name={offline ? 'wifiOff' : 'alert'} />
        <p>{offline ? TXT.annualUnseenOffline(year) : state.message || TXT.annualFailed}</p>
        {!offline && (
          <div>
            <Button variant="secondary" onClick={onRetry}>
              {TXT.retry}
            </Button>
          </div>
        )}
      </section>
    );
  }
  const figures = state.kind === 'ready' ? state.figures : null;
  const chartTitle = TXT.annualChartTitle(year);
  return (
    <>
      <div className="annual__top">
        <section className="card stack annual__chart" aria-labelledby="annual-chart-title" aria-busy={!figures || undefined}>
          <h2 id="annual-chart-title">{chartTitle}</h2>
          {!figures ? (
            <ChartSkeleton />
          ) : hasAmounts(figures.series) ? (
            <IncomeExpenseChart series={figures.series} year={year} caption={chartTitle} lastMonth={lastMonthOf(year, mexicoCityDate())} />
          ) : (
            <p className="muted">{TXT.noData}</p>
          )}
        </section>
        <section className="card stack annual__side" aria-labelledby="annual-side-title">
          <h2 id="annual-side-title">{TXT.annualSummaryTitle(year)}</h2>
          <BalanceFigures figures={figures ? seriesBalance(figures.series) : undefined} stacked />
        </section>
      </div>
      <section className="card stack annual__wide spending-summary" aria-labelledby="annual-categories-title">
        <h2 id="annual-categories-title">{TXT.annualByCategory}</h2>
        {!figures ? (
          <SpendingSkeleton />
        ) : figures.summary ? (
          <SpendingBreakdownView summary={figures.summary} period="year" caption={`${TXT.annualByCategory} de ${year}`} />
        ) : (
          <p className="muted">{TXT.noData}</p>
        )}
      </section>
    </>
  );
}

function TableSkeleton() {
  return (
    <div className="card stack" role="status" aria-label={TXT.loading}>
      {Array.from({ length: 5 }, (_, i) => (
        <div key={i} className="row" style={{ flexWrap: 'nowrap' }}>
          <Skeleton width={88} />
          <Skeleton width="40%" />
          <Skeleton width="20%" />
        </div>
      ))}
    </div>
  );
}

/** 'Transacciones de {year}': the dashboard's table (or phone cards) over the whole year, 10 rows a page. */
function YearTickets({ rfc, year, sync, seen }: { rfc: string; year: number; sync: YearSync; seen: boolean | undefined }) {
  const desktop = useMediaQuery(DESKTOP_QUERY);
  const { lookups, lists } = useLookups();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [selected, dispatchSelection] = useReducer(selectionReducer, new Set<string>());
  const searchLookups = search.trim() ? lookups : null;
  const from = monthKey(year, 1);
  const to = monthKey(year, 12);
  // Selection and paging start over on another year (as the dashboard does on another month).
  useOnChange(year, () => {
    setPage(1);
    dispatchSelection({ type: 'reset' });
  });
  const result = useStableLiveQuery(
    () => queryMonthPage(db, { rfc, month: from, toMonth: to, search, page }, lookups),
    // Names matter only to a search (see the dashboard).
    [rfc, from, to, search, page, searchLookups],
  );
  const rows = useMemo(() => (result?.rows ?? []).map((t) => ticketRow(t, lookups)), [result, lookups]);
  const selectable = useStableLiveQuery(() => querySelectableIds(db, { rfc, month: from, toMonth: to, search }, lookups), [rfc, from, to, search, searchLookups]);
  const selectableIds = selectable ?? [];
  const title = TXT.annualTable(year);
  // Stable, so the memoised cards do not render again for it.
  const onToggle = useCallback((row: { id: string; selectable: boolean }) => dispatchSelection({ type: 'toggle', id: row.id, selectable: row.selectable }), []);

  let body;
  if (result === undefined || (result.monthTotal === 0 && sync.status === 'updating' && !seen)) body = <TableSkeleton />;
  else if (result.monthTotal === 0) {
    body = (
      <div className="card empty" role="status">
        <p>{sync.status === 'offline' && !seen ? TXT.annualUnseenOffline(year) : TXT.annualEmpty(year)}</p>
      </div>
    );
  } else if (result.total === 0) {
    body = (
      <div className="card empty" role="status">
        <p>{noMatchesText(search)}</p>
      </div>
    );
  } else {
    const listProps = {
      rows,
      lists,
      caption: title,
      selected,
      onToggle,
      allState: selectAllState(selected, selectableIds),
      canSelectAll: selectableIds.length > 0,
      onToggleAll: () => dispatchSelection({ type: 'toggle-all', selectableIds }),
    };
    body = (
      <>
        {desktop ? <TicketTable {...listProps} /> : <TicketCards {...listProps} />}
        <Pager page={result.page} total={result.total} onPage={setPage} />
      </>
    );
  }

  return (
    <section className="annual__wide annual__tickets" aria-labelledby="annual-tickets-title">
      <div className="toolbar">
        <h2 id="annual-tickets-title" className="annual__tickets-title">
          {title}
        </h2>
        {desktop && (
          <SelectionActions selected={selected} companies={lookups.companies} year={year} onCleared={() => dispatchSelection({ type: 'reset' })} />
        )}
        <SearchField
          id="annual-search"
          value={search}
          onChange={(value) => {
            setSearch(value);
            setPage(1);
          }}
        />
      </div>
      {body}
      {!desktop && selected.size > 0 && (
        <div className="bottom-bar bottom-bar--selection">
          <SelectionActions selected={selected} companies={lookups.companies} year={year} compact onCleared={() => dispatchSelection({ type: 'reset' })} />
        </div>
      )}
    </section>
  );
}

function Annual({ rfc, accountName, year }: { rfc: string; accountName: string; year: number }) {
  const [attempt, setAttempt] = useState(0);
  const companies = useCompanyNames();
  const figures = useYearFigures(rfc, year, attempt, companies);
  const { sync, seen } = useYearSync(rfc, year, attempt, figures.kind !== 'loading');
  const retry = () => setAttempt((n) => n + 1);
  // The chart code downloads while the numbers are on their way.
  useEffect(() => preloadCharts(), []);

  return (
    <main id="main" className="page annual">
      <PeriodTitle block="annual" title={`${TXT.annualTitle} ${year}`} accountName={accountName} rfc={rfc} updating={sync.status === 'updating'} />
      <Notices sync={sync} figures={figures} seen={seen} onRetry={retry} />
      <Figures state={figures} year={year} onRetry={retry} />
      <YearTickets rfc={rfc} year={year} sync={sync} seen={seen} />
    </main>
  );
}
