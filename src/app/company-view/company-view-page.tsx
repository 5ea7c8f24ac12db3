// 'Gastos por colaborador de {month}' (spec §2 Company screens), gated by Gastos: the
// approved spending of the company's collaborators (per month, by department, by category and venue) and
// the month's tickets, which the manager selects and approves or rejects (with a reason); then reloads.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Account } from '../../domain/account';
import type { CompanyStats } from '../../domain/company';
import { batches, companyViewTitle, keepListed, monthSelection, toggleAll, type MonthSelection } from '../../domain/company-view';
import { companyReportName, exportedText } from '../../domain/csv-report';
import { MSG } from '../../domain/messages';
import type { Ticket } from '../../domain/ticket';
import { ApiError } from '../../offline/http';
import { preloadCharts } from '../charts/charts';
import { downloadFile } from '../tickets/downloads';
import { useCompanyNames } from '../tickets/spending-summary';
import { useLayout } from '../layout/layout-context';
import { CompanyGate } from '../feature-gates/company-gate';
import { ForSelectedAccount } from '../layout/for-selected-account';
import { Button } from '../ui/button';
import { SkeletonCard } from '../ui/skeleton';
import { toast } from '../ui/toast-store';
import { allCompanyTickets, approveTickets, getCompanyStats, getCompanyTickets, PER_PAGE, rejectTickets } from './company-view-api';
import { CompanyCharts } from './company-charts';
import { RejectDialog } from './reject-dialog';
import { CompanyTickets } from './company-tickets';
// The table, cards, pager and top lists share the dashboard's styles.
import '../tickets/tickets.css';
import './company-view.css';

const messageOf = (err: unknown) => (err instanceof ApiError ? err.message : MSG.generic);

type Loaded = { status: 'loading' } | { status: 'error'; message: string } | { status: 'done'; tickets: Ticket[]; total: number; stats: CompanyStats };

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

function CompanyView({ account, year, month }: { account: Account; year: number; month: number }) {
  const [state, setState] = useState<Loaded>({ status: 'loading' });
  const [reload, setReload] = useState(0);
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  // The whole month chosen (every page): the selection is not trimmed to the page shown.
  const [wholeMonth, setWholeMonth] = useState(false);
  const [selectingMonth, setSelectingMonth] = useState(false);
  const wholeMonthRef = useRef(wholeMonth);
  wholeMonthRef.current = wholeMonth;
  const companies = useCompanyNames();

  useEffect(() => {
    preloadCharts();
    const ctrl = new AbortController();
    setState((s) => (s.status === 'done' ? s : { status: 'loading' }));
    Promise.all([getCompanyTickets(account.rfc, year, month, page, ctrl.signal), getCompanyStats(account.rfc, year, month, ctrl.signal)]).then(
      ([t, s]) => {
        // A page past the end (after the list shrank): go to the last one.
        const last = Math.max(1, Math.ceil(t.total / PER_PAGE));
        if (page > last) return setPage(last);
        setState({ status: 'done', tickets: t.tickets, total: t.total, stats: s.stats });
        if (!wholeMonthRef.current) setSelected((sel) => keepListed(sel, t.tickets.map((x) => x.ticket_id)));
      },
      (err: unknown) => {
        if (!ctrl.signal.aborted) setState({ status: 'error', message: messageOf(err) });
      },
    );
    return () => ctrl.abort();
  }, [account.rfc, year, month, page, reload]);
  useEffect(() => {
    setPage(1);
    setWholeMonth(false);
    setSelected(new Set());
  }, [year, month]);

  const tickets = useMemo(() => (state.status === 'done' ? state.tickets : []), [state]);
  const ids = useMemo(() => tickets.map((t) => t.ticket_id), [tickets]);
  const clearSelection = () => {
    setWholeMonth(false);
    setSelected(new Set());
  };
  async function selectWholeMonth() {
    setSelectingMonth(true);
    try {
      const all = await allCompanyTickets(account.rfc, year, month);
      setSelected(new Set(all.map((t) => t.ticket_id)));
      setWholeMonth(true);
    } catch (err) {
      toast.error(messageOf(err));
    } finally {
      setSelectingMonth(false);
    }
  }
  const toggle = useCallback((id: string) => setSelected((s) => {
    const next = new Set(s);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  }), []);

  async function review(run: () => Promise<{ message: string }>) {
    if (selected.size === 0) {
      toast.warning(MSG.companyViewNothingSelected);
      return false;
    }
    setBusy(true);
    try {
      const done = await run();
      toast.success(done.message);
      clearSelection();
      setReload((n) => n + 1);
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
      const report = companyReport(chosen, companies);
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

  if (state.status === 'loading') return <SkeletonCard label="Cargando…" lines={6} />;
  if (state.status === 'error') {
    return (
      <div className="notice notice--error stack" role="alert">
        <p>{state.message}</p>
        <div>
          <Button onClick={() => setReload((n) => n + 1)}>Reintentar</Button>
        </div>
      </div>
    );
  }
  return (
    <>
      <CompanyCharts stats={state.stats} year={year} month={month} />
      <section className="card stack company-view__tickets" aria-labelledby="company-view-tickets-title">
        <div className="company-view__toolbar">
          <h2 id="company-view-tickets-title">Comprobantes de colaboradores</h2>
          <div className="company-view__actions" role="group" aria-label="Acciones de los comprobantes seleccionados">
            <span className="muted company-view__count" aria-live="polite">
              {selected.size === 1 ? '1 seleccionado' : `${selected.size} seleccionados`}
            </span>
            <Button variant="primary" onClick={approve} disabled={busy || selected.size === 0} loading={busy && !rejecting}>
              Aprobar
            </Button>
            <Button variant="danger" onClick={() => setRejecting(true)} disabled={busy || selected.size === 0}>
              Rechazar
            </Button>
            <Button onClick={() => void exportCsv()} disabled={tickets.length === 0 || exporting} loading={exporting}>
              Exportar CSV
            </Button>
          </div>
        </div>
        <MonthSelectionLine
          line={monthSelection(selected, ids, state.total, wholeMonth)}
          busy={selectingMonth}
          onWholeMonth={() => void selectWholeMonth()}
          onClear={clearSelection}
        />
        {tickets.length === 0 ? (
          <p className="muted">{MSG.companyViewEmpty}</p>
        ) : (
          <CompanyTickets
            tickets={tickets}
            selected={selected}
            onToggle={toggle}
            onToggleAll={() => {
              if (wholeMonth) return clearSelection();
              setSelected((s) => toggleAll(s, ids));
            }}
            companies={companies}
          />
        )}
        {state.total > PER_PAGE && <PagerNav page={page} pages={Math.ceil(state.total / PER_PAGE)} total={state.total} onPage={setPage} />}
      </section>
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
