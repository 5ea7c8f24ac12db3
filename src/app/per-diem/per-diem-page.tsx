// 'Viáticos' (spec §2 Company screens): the company's per-diem events on the server —
// table (cards on phones), 'Nuevo evento' in the off-canvas panel, 'Aprobar' (open) and 'Cerrar evento'
// (approved; then authorised vs spent). Gated by Viaticos (premium advert otherwise); a person's RFC gets
// the company-only notice. Manager actions need a connection: offline (the layout's banner says so) the
// buttons wait disabled and the panel says why nothing was sent.
import { useState } from 'react';
import type { Account } from '../../domain/account';
import type { PerDiemEventDetail, PerDiemOptions } from '../../domain/company';
import { displayDate } from '../../domain/dates';
import { MSG } from '../../domain/messages';
import { formatMoney } from '../../domain/money';
import { ApiError } from '../../offline/http';
import { invalidate, problemOf, setQueryData, useApiQuery } from '../api/query';
import { useLayout } from '../layout/layout-context';
import { Button } from '../ui/button';
import { Icon } from '../ui/icon';
import { SkeletonCard } from '../ui/skeleton';
import { toast } from '../ui/toast-store';
import { useOnline } from '../use-online';
import { approvePerDiemEvent, closePerDiemEvent, getPerDiemEvents, getPerDiemOptions, perDiemKeys } from './per-diem-api';
import { actionOf, closingBalance, emptyDraft, STATUS_LABEL, type PerDiemDraft } from './per-diem-form';
import { PerDiemPanel } from './per-diem-panel';
import { CompanyGate } from '../feature-gates/company-gate';
import { ForSelectedAccount } from '../layout/for-selected-account';
import '../ui/company-table.css';
import './per-diem.css';

const messageOf = (err: unknown) => (err instanceof ApiError ? (err.offline ? MSG.perDiemOffline : err.message) : MSG.generic);

interface Loaded {
  events: PerDiemEventDetail[];
  options: PerDiemOptions;
}

/** The events and the panel's options, read together: the screen needs both. */
function usePerDiemData(clientId: number): { data: Loaded | null; problem: Error | null; retry: () => void } {
  const events = useApiQuery(perDiemKeys.events(clientId), ({ signal }) => getPerDiemEvents(clientId, signal));
  const options = useApiQuery(perDiemKeys.options(clientId), ({ signal }) => getPerDiemOptions(clientId, signal));
  const reads = [events, options];
  return {
    data: events.data && options.data ? { events: events.data, options: options.data } : null,
    problem: reads.map(problemOf).find((p) => p !== null) ?? null,
    retry: () => reads.filter((r) => r.isError).forEach((r) => void r.refetch()),
  };
}

function ClosingTotals({ e }: { e: PerDiemEventDetail }) {
  const balance = closingBalance(e);
  if (balance === null) return null;
  return (
    <dl className="per-diem-totals">
      <div>
        <dt>Autorizado</dt>
        <dd className="tabular">{formatMoney(e.authorized_total ?? 0)}</dd>
      </div>
      <div>
        <dt>Gastado</dt>
        <dd className="tabular">{formatMoney(e.spent_total ?? 0)}</dd>
      </div>
      <div className={balance < 0 ? 'per-diem-totals__over' : undefined}>
        <dt>{balance < 0 ? 'Excedido' : 'Sobrante'}</dt>
        <dd className="tabular">{formatMoney(Math.abs(balance))}</dd>
      </div>
    </dl>
  );
}

interface TableProps {
  events: PerDiemEventDetail[];
  online: boolean;
  acting: number | null;
  onAct: (e: PerDiemEventDetail, action: 'approve' | 'close') => void;
}

function PerDiemTable({ events, online, acting, onAct }: TableProps) {
  return (
    <div className="card company-table-wrap">
      <table className="company-table per-diem-table">
        <caption className="visually-hidden">Eventos de viáticos</caption>
        <thead>
          <tr>
            <th scope="col">Evento</th>
            <th scope="col">Fechas</th>
            <th scope="col">Departamento</th>
            <th scope="col">Colaborador</th>
            <th scope="col" className="per-diem-table__num">Depósito</th>
            <th scope="col" className="per-diem-table__num">Gasto autorizado</th>
            <th scope="col" className="per-diem-table__num">Pendiente</th>
            <th scope="col">Estado</th>
            <th scope="col">
              <span className="visually-hidden">Acciones</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => {
            const action = actionOf(e.status);
            return (
              <tr key={e.id} data-event={e.id}>
                <th scope="row">
                  {e.event_name}
                  {e.notes && <small className="company-table__email">{e.notes}</small>}
                </th>
                <td data-label="Fechas" className="tabular per-diem-table__dates">
                  {e.start_date === e.end_date ? (
                    e.start_date
                  ) : (
                    <span>
                      {e.start_date} <span className="per-diem-table__to">al {e.end_date}</span>
                    </span>
                  )}
                </td>
                <td data-label="Departamento">{e.area ?? 'Todos'}</td>
                <td data-label="Colaborador">{e.username ?? 'Todos'}</td>
                <td data-label="Depósito" className="tabular per-diem-table__num">{formatMoney(e.deposit)}</td>
                <td data-label="Gasto autorizado" className="tabular per-diem-table__num">{formatMoney(e.authorized_spending)}</td>
                <td data-label="Pendiente" className="tabular per-diem-table__num">{formatMoney(e.spending_pending_of_authorization_)}</td>
                <td data-label="Estado">
                  <span className={`per-diem-status per-diem-status--${e.status}`}>{STATUS_LABEL[e.status]}</span>
                </td>
                <td className="company-table__actions per-diem-table__actions">
                  {action === 'approve' && (
                    <Button variant="primary" loading={acting === e.id} disabled={!online} aria-label={`Aprobar ${e.event_name}`} onClick={() => onAct(e, 'approve')}>
                      Aprobar
                    </Button>
                  )}
                  {action === 'close' && (
                    <Button loading={acting === e.id} disabled={!online} aria-label={`Cerrar evento ${e.event_name}`} onClick={() => onAct(e, 'close')}>
                      Cerrar evento
                    </Button>
                  )}
                  {e.status === 'closed' && <ClosingTotals e={e} />}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function PerDiemEvents({ clientId }: { clientId: number }) {
  const online = useOnline();
  const today = displayDate(new Date());
  const { data, problem, retry } = usePerDiemData(clientId);
  const [panelOpen, setPanelOpen] = useState(false);
  const [draft, setDraft] = useState<PerDiemDraft>(() => emptyDraft(today));
  const [acting, setActing] = useState<number | null>(null);

  // A write answers with the event: it takes its place in the cached list.
  const setEvents = (update: (events: PerDiemEventDetail[]) => PerDiemEventDetail[]) =>
    setQueryData<PerDiemEventDetail[]>(perDiemKeys.events(clientId), (old) => (old ? update(old) : old));
  const replace = (e: PerDiemEventDetail) => setEvents((events) => events.map((x) => (x.id === e.id ? e : x)));

  async function act(e: PerDiemEventDetail, action: 'approve' | 'close') {
    if (!online) return toast.info(MSG.perDiemOffline);
    setActing(e.id);
    try {
      const updated = action === 'approve' ? await approvePerDiemEvent(clientId, e.id) : await closePerDiemEvent(clientId, e.id);
      replace(updated);
      toast.success(action === 'approve' ? MSG.perDiemApproved : MSG.perDiemClosed);
    } catch (err) {
      toast.error(messageOf(err));
      if (err instanceof ApiError && err.status === 409) void invalidate(perDiemKeys.events(clientId));
    } finally {
      setActing(null);
    }
  }

  if (problem) {
    const loadError = messageOf(problem);
    return (
      <div className={`notice ${loadError === MSG.perDiemOffline ? 'notice--info' : 'notice--error'}`} role="alert">
        <p>{loadError}</p>
        <Button onClick={retry}>Reintentar</Button>
      </div>
    );
  }
  if (!data) return <SkeletonCard label="Cargando eventos…" lines={4} />;

  return (
    <div className="stack per-diem-events">
      <div className="row row--between company-toolbar">
        <p className="muted">{data.events.length === 1 ? '1 evento' : `${data.events.length} eventos`}</p>
        <Button variant="primary" onClick={() => setPanelOpen(true)}>
          <Icon name="plus" /> Nuevo evento
        </Button>
      </div>
      {data.events.length === 0 ? (
        <div className="card company-empty">
          <p>Aún no hay eventos de viáticos. Crea uno con su depósito y sus fechas: sumaremos los gastos de tus colaboradores en esos días.</p>
        </div>
      ) : (
        <PerDiemTable events={data.events} online={online} acting={acting} onAct={(e, action) => void act(e, action)} />
      )}
      <PerDiemPanel
        open={panelOpen}
        clientId={clientId}
        today={today}
        options={data.options}
        draft={draft}
        onDraft={setDraft}
        onClose={() => setPanelOpen(false)}
        onSaved={(e) => {
          setPanelOpen(false);
          setDraft(emptyDraft(today));
          setEvents((events) => [e, ...events]);
        }}
      />
    </div>
  );
}

export function PerDiemBody({ account }: { account: Account }) {
  return (
    <CompanyGate account={account} feature="Viaticos">
      <PerDiemEvents key={account.diverza_client_id} clientId={account.diverza_client_id} />
    </CompanyGate>
  );
}

export function PerDiemPage() {
  const { selected } = useLayout();
  return (
    <main id="main" className="page company per-diem">
      <div className="page__title">
        <h1>Viáticos</h1>
        {selected && <p className="muted company__who">{selected.name ? `${selected.name} · ${selected.rfc}` : selected.rfc}</p>}
      </div>
      <ForSelectedAccount>{(account) => <PerDiemBody account={account} />}</ForSelectedAccount>
    </main>
  );
}
