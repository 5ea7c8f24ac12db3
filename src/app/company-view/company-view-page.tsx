// 'Gastos por colaborador de {month}' (spec §2 Company screens), gated by Gastos: the month's tickets of the
// company's collaborators first, which the manager selects and approves or rejects (with a reason), then
// the approved spending (per month, by department, by category and venue).
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Account } from '../../domain/account';
import { batches, companyViewTitle, keepListed, monthSelection, toggleAll, type MonthSelection } from '../../domain/company-view';
import { companyReportName, exportedText } from '../../domain/csv-report';
import { MSG } from '../../domain/messages';
import { errorMessage, invalidate, keepPreviousData, problemOf, useApiQuery } from '../api/query';
import { preloadCharts } from '../charts/charts';
import { downloadFile } from '../tickets/downloads';
import { useCompanyNames } from '../tickets/spending-summary';
import { useLayout } from '../layout/layout-context';
import { CompanyGate } from '../feature-gates/company-gate';
import { ForSelectedAccount } from '../layout/for-selected-account';
import { Button } from '../ui/button';
import { SkeletonCard } from '../ui/skeleton';
import { toast } from '../ui/toast-store';
import { allCompanyTickets, approveTickets, collaboratorOf, companyViewKeys, getCompanyStats, getCompanyTickets, PER_PAGE, rejectTickets, type CompanyTicket, type TicketPage } from './company-view-api';
import { CompanyCharts } from './company-charts';
import { RejectDialog } from './reject-dialog';
import { CompanyTickets } from './company-tickets';
// The table, cards, pager and top lists share the dashboard's styles.
import '../tickets/tickets.css';
import './company-view.css';

const messageOf = (err: unknown) => errorMessage(err);

/** 'Anterior · Página n de m · Siguiente' (50 tickets a page; the dashboard's pager counts 10). */
function PagerNav({ page, pages, total, onPage }: { page: number; pages: number; total: number; onPage: (p: number) => void }) {
  return (
    <nav className="pager" aria-label="Páginas">
      <Button disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Anterior
      </Button>
      <span className="pager__label" aria-live="polite">{`Página ${page} de ${pages} · ${total} comprobantes`}</span>
      <Button disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Siguiente
      </Button>
    </nav>
  );
}

function MonthSelectionLine({ line, busy, onWholeMonth, onClear }: { line: MonthSelection; busy: boolean; onWholeMonth: () => void; onClear: () => void }) {
  if (line.kind === 'none') return null;
  return (
    <p className="notice notice--info company-view__month-selection" role="status">
      {line.text}{' '}
      <Button variant="ghost" onClick={line.kind === 'offer' ? onWholeMonth : onClear} loading={busy}>
        {line.action}
      </Button>
    </p>
  );
}

/**
 * The month's reads, one page of tickets and the stats, each failing on its own (the list stays usable when
 * only the charts could not load); the last ones stay on screen while the next load.
 */
function useCompanyMonth(rfc: string, year: number, month: number, page: number) {
  const tickets = useApiQuery(companyViewKeys.tickets(rfc, year, month, page), ({ signal }) => getCompanyTickets(rfc, year, month, page, signal), {
    placeholderData: keepPreviousData,
  });
  const stats = useApiQuery(companyViewKeys.stats(rfc, year, month), ({ signal }) => getCompanyStats(rfc, year, month, signal), {
    placeholderData: keepPreviousData,
  });
  return {
    page: tickets.data,
    /** False while the previous page stands in for the one asked. */
    fresh: !tickets.isPlaceholderData,
    stats: stats.data?.stats,
    ticketsProblem: problemOf(tickets),
    statsProblem: problemOf(stats),
    retryTickets: () => void tickets.refetch(),
    retryStats: () => void stats.refetch(),
  };
}

/** A read that failed, in place of what it would have shown, with its retry. */
function ReadProblem({ problem, onRetry }: { problem: unknown; onRetry: () => void }) {
  return (
    <div className="notice notice--error stack company-view__problem" role="alert">
      <p>{messageOf(problem)}</p>
      <div>
        <Button onClick={onRetry}>Reintentar</Button>
      </div>
    </div>
  );
}

/**
 * The manager's selection: trimmed to the tickets listed each time a page arrives (unless the whole
 * month is chosen, every page), and cleared when the month changes.
 */
function useSelection(year: number, month: number, listed: TicketPage | undefined) {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [wholeMonth, setWholeMonth] = useState(false);
  const [period, setPeriod] = useState({ year, month });
  if (period.year !== year || period.month !== month) {
    setPeriod({ year, month });
    setWholeMonth(false);
    setSelected(new Set());
  }
  const [trimmedFor, setTrimmedFor] = useState(listed);
  if (listed !== trimmedFor) {
    setTrimmedFor(listed);
    if (listed && !wholeMonth) setSelected((sel) => keepListed(sel, listed.tickets.map((x) => x.ticket_id)));
  }
  const clear = () => {
    setWholeMonth(false);
    setSelected(new Set());
  };
  const toggle = useCallback((id: string) => setSelected((s) => {
    const next = new Set(s);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  }), []);
  return { selected, setSelected, wholeMonth, setWholeMonth, clear, toggle };
}

type Selection = ReturnType<typeof useSelection>;

function TicketsSection(props: {
  tickets: CompanyTicket[];
  total: number;
  page: number;
  onPage: (p: number) => void;
  selection: Selection;
  busy: boolean;
  rejecting: boolean;
  exporting: boolean;
  selectingMonth: boolean;
  companies: ReturnType<typeof useCompanyNames>;
  onApprove: () => void;
  onReject: () => void;
  onExport: () => void;
  onWholeMonth: () => void;
}) {
  const { tickets, total, page, selection, busy } = props;
  const { selected, wholeMonth } = selection;
  const ids = useMemo(() => tickets.map((t) => t.ticket_id), [tickets]);
  return (
    <section className="card stack company-view__tickets" aria-labelledby="company-view-tickets-title">
      <div className="company-view__toolbar">
        <h2 id="company-view-tickets-title">Comprobantes de colaboradores</h2>
        <div className="company-view__actions" role="group" aria-label="Acciones de los comprobantes seleccionados">
          <span className="muted company-view__count" aria-live="polite">
            {selected.size === 1 ? '1 seleccionado' : `${selected.size} seleccionados`}
          </span>
          <Button variant="primary" onClick={props.onApprove} disabled={busy || selected.size === 0} loading={busy && !props.rejecting}>
            Aprobar
          </Button>
          <Button variant="danger" onClick={props.onReject} disabled={busy || selected.size === 0}>
            Rechazar
          </Button>
          <Button onClick={props.onExport} disabled={tickets.length === 0 || props.exporting} loading={props.exporting}>
            Exportar CSV
          </Button>
        </div>
      </div>
      <MonthSelectionLine line={monthSelection(selected, ids, total, wholeMonth)} busy={props.selectingMonth} onWholeMonth={props.onWholeMonth} onClear={selection.clear} />
      {tickets.length === 0 ? (
        <p className="muted">{MSG.companyViewEmpty}</p>
      ) : (
        <CompanyTickets
          tickets={tickets}
          selected={selected}
          onToggle={selection.toggle}
          onToggleAll={() => {
            if (wholeMonth) return selection.clear();
            selection.setSelected((s) => toggleAll(s, ids));
          }}
          companies={props.companies}
        />
      )}
      {total > PER_PAGE && <PagerNav page={page} pages={Math.ceil(total / PER_PAGE)} total={total} onPage={props.onPage} />}
    </section>
  );
}

function CompanyView({ account, year, month }: { account: Account; year: number; month: number }) {
  const [page, setPage] = useState(1);
  const [period, setPeriod] = useState({ year, month });
  if (period.year !== year || period.month !== month) {
    setPeriod({ year, month });
    setPage(1);
  }
  const read = useCompanyMonth(account.rfc, year, month, page);
  // A page past the end (after the list shrank): go to the last one.
  const pastEnd = read.page !== undefined && read.fresh && page > Math.max(1, Math.ceil(read.page.total / PER_PAGE));
  if (pastEnd && read.page) setPage(Math.max(1, Math.ceil(read.page.total / PER_PAGE)));
  const selection = useSelection(year, month, pastEnd ? undefined : read.page);
  const { selected, wholeMonth } = selection;
  const [exporting, setExporting] = useState(false);
  const [busy, setBusy] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const [selectingMonth, setSelectingMonth] = useState(false);
  const companies = useCompanyNames();

  useEffect(() => preloadCharts(), []);

  const tickets = useMemo(() => read.page?.tickets ?? [], [read.page]);
  async function selectWholeMonth() {
    setSelectingMonth(true);
    try {
      const all = await allCompanyTickets(account.rfc, year, month);
      selection.setSelected(new Set(all.map((t) => t.ticket_id)));
      selection.setWholeMonth(true);
    } catch (err) {
      toast.error(messageOf(err));
    } finally {
      setSelectingMonth(false);
    }
  }

  async function review(run: () => Promise<{ message: string }>) {
    if (selected.size === 0) {
      toast.warning(MSG.companyViewNothingSelected);
      return false;
    }
    setBusy(true);
    try {
      const done = await run();
      toast.success(done.message);
      selection.clear();
      void invalidate(companyViewKeys.month(account.rfc, year, month));
      return true;
    } catch (err) {
      toast.error(messageOf(err));
      return false;
    } finally {
      setBusy(false);
    }
  }

  /** The selection in batches the server accepts (a whole month can be more than one request holds). */
  async function inBatches(send: (ids: string[]) => Promise<{ message: string }>): Promise<{ message: string }> {
    let last = { message: '' };
    for (const ids of batches([...selected])) last = await send(ids);
    return last;
  }
  const approve = () => void review(() => inBatches((ids) => approveTickets(account.diverza_client_id, ids)));
  const reject = async (reason: string) => {
    if (await review(() => inBatches((ids) => rejectTickets(account.diverza_client_id, ids, reason)))) setRejecting(false);
  };

  /**
   * The month's report (spec §9, plus who spent it and the review): the selected tickets of this page, or
   * every ticket of the month; spending only, and the toast says what was left out and the total.
   */
  async function exportCsv() {
    setExporting(true);
    try {
      const listed = selected.size > 0 && !wholeMonth ? tickets : await allCompanyTickets(account.rfc, year, month);
      const chosen = selected.size > 0 ? listed.filter((t) => selected.has(t.ticket_id)) : listed;
      const { companyReport } = await import('../tickets/export-csv');
      // The report's 'colaborador' names the person as the list does, not by their username.
      const report = companyReport(chosen.map((t) => ({ ...t, username: collaboratorOf(t) })), companies);
      if (report.rows > 0) downloadFile(report.csv, companyReportName(month, year), 'text/csv;charset=utf-8');
      const left = report.omitted.income + report.omitted.noMoney;
      if (report.rows > 0 && left === 0) toast.success(exportedText(report));
      else toast.warning(exportedText(report));
    } catch (err) {
      toast.error(messageOf(err));
    } finally {
      setExporting(false);
    }
  }

  // The work first: the receipts to approve, then the charts of what was approved.
  const listReady = read.page !== undefined && !pastEnd;
  return (
    <>
      {read.ticketsProblem ? (
        <ReadProblem problem={read.ticketsProblem} onRetry={read.retryTickets} />
      ) : !listReady || !read.page ? (
        <SkeletonCard label="Cargando comprobantes…" lines={6} />
      ) : (
        <TicketsSection
          tickets={tickets}
          total={read.page.total}
          page={page}
          onPage={setPage}
          selection={selection}
          busy={busy}
          rejecting={rejecting}
          exporting={exporting}
          selectingMonth={selectingMonth}
          companies={companies}
          onApprove={approve}
          onReject={() => setRejecting(true)}
          onExport={() => void exportCsv()}
          onWholeMonth={() => void selectWholeMonth()}
        />
      )}
      {read.statsProblem ? (
        <ReadProblem problem={read.statsProblem} onRetry={read.retryStats} />
      ) : read.stats ? (
        <CompanyCharts stats={read.stats} year={year} month={month} />
      ) : (
        <SkeletonCard label="Cargando gráficas…" lines={4} />
      )}
      <RejectDialog open={rejecting} count={selected.size} busy={busy} onClose={() => setRejecting(false)} onReject={(reason) => void reject(reason)} />
    </>
  );
}

export function CompanyViewPage() {
  const { selected, period } = useLayout();
  return (
    <main id="main" className="page company-view">
      <div className="page__title">
        <h1>{companyViewTitle(period.month)}</h1>
        {selected && <p className="muted company-view__who">{selected.name ? `${selected.name} · ${selected.rfc}` : selected.rfc}</p>}
      </div>
      <ForSelectedAccount>
        {(account) => (
          <CompanyGate account={account} feature="Gastos">
            <CompanyView key={account.diverza_client_id} account={account} year={period.year} month={period.month} />
          </CompanyGate>
        )}
      </ForSelectedAccount>
    </main>
  );
}
