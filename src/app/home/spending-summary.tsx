// 'Resumen de gastos' (spec §2 spending summary card): top 5 categories and establishments of the
// month from the analytics endpoint, as plain lists. Online only; fetched again when the server's copy
// of the month changes (a pull, an acknowledged outbox operation); the loaded flag is set on success
// or failure (spec §4).
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { monthKey } from '../../domain/dates';
import type { TopItem } from '../../domain/analytics';
import { formatMoney } from '../../domain/money';
import { db } from '../../offline/db';
import { FetchError, getJson } from '../../offline/transport';
import { TXT } from '../strings';
import { Button } from '../ui/button';
import { useOnline } from '../use-online';
import { querySyncedVersion } from './month-query';
import { percentText, spendingSummary, TREND, type SpendingAnswer, type SpendingSummary as Summary } from './spending-summary-model';
import { pageApi } from './use-month-sync';

type Outcome = { status: 'done'; summary: Summary | null } | { status: 'offline' } | { status: 'error'; message: string };
/** Not loaded until an answer (or failure) for this account and month arrived; a refresh keeps the old one. */
type State = { loaded: false } | ({ loaded: true } & Outcome);

function useSpendingSummary(rfc: string, year: number, month: number): { state: State; retry: () => void } {
  const online = useOnline();
  const period = `${rfc}/${year}/${month}`;
  const [last, setLast] = useState<{ period: string; outcome: Outcome } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const version = useLiveQuery(() => querySyncedVersion(db, rfc, monthKey(year, month)), [rfc, year, month]);

  useEffect(() => {
    if (version === undefined) return;
    if (!online) {
      setLast({ period, outcome: { status: 'offline' } });
      return;
    }
    let live = true;
    getJson<SpendingAnswer>(pageApi, `/api/v3/analytics/spending/${encodeURIComponent(rfc)}/${year}/${month}`).then(
      (answer) => live && setLast({ period, outcome: { status: 'done', summary: spendingSummary(answer) } }),
      (err: unknown) => {
        if (!live) return;
        const outcome: Outcome =
          err instanceof FetchError && err.offline ? { status: 'offline' } : { status: 'error', message: err instanceof Error ? err.message : '' };
        setLast({ period, outcome });
      },
    );
    return () => {
      live = false;
    };
  }, [period, rfc, year, month, online, attempt, version]);

  const state: State = last && last.period === period ? { loaded: true, ...last.outcome } : { loaded: false };
  return { state, retry: () => setAttempt((n) => n + 1) };
}

function TopList({ title, items }: { title: string; items: TopItem[] }) {
  return (
    <section className="spending-summary__list" aria-label={title}>
      <h3>{title}</h3>
      {items.length === 0 ? (
        <p className="muted">No hay datos</p>
      ) : (
        <ol>
          {items.map((item) => {
            const trend = TREND[item.trend];
            return (
              <li key={item.label} className="spending-summary__item">
                <span className="spending-summary__label">{item.label}</span>
                <span className="spending-summary__amount tabular">{formatMoney(item.value)}</span>
                <span className="spending-summary__bar" aria-hidden="true">
                  <span style={{ width: `${Math.min(100, item.share)}%` }} />
                </span>
                <span className="visually-hidden">{`${percentText(item.share)} del total`}</span>
                <span className={`spending-summary__change spending-summary__change--${item.trend} tabular`}>
                  <span aria-hidden="true">{trend.arrow}</span> <span className="visually-hidden">{`${trend.words} `}</span>
                  {percentText(item.change)}
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

export function SpendingSummaryCard({ rfc, year, month }: { rfc: string; year: number; month: number }) {
  const { state, retry } = useSpendingSummary(rfc, year, month);
  let body;
  if (!state.loaded) {
    body = (
      <p className="muted" role="status">
        <span className="spinner" aria-hidden="true" /> {TXT.loading}
      </p>
    );
  } else if (state.status === 'offline') {
    body = (
      <p className="muted" role="status">
        Disponible con conexión
      </p>
    );
  } else if (state.status === 'error') {
    body = (
      <div className="row row--between" role="alert">
        <span>{state.message || 'No pudimos cargar el resumen de gastos.'}</span>
        <Button variant="secondary" onClick={retry}>
          {TXT.retry}
        </Button>
      </div>
    );
  } else if (!state.summary) {
    body = <p className="muted">No hay datos</p>;
  } else {
    body = (
      <div className="spending-summary__lists">
        <TopList title="Categorías principales" items={state.summary.categories} />
        <TopList title="Establecimientos principales" items={state.summary.venues} />
      </div>
    );
  }
  return (
    <section className="card stack spending-summary" aria-labelledby="spending-summary-title">
      <h2 id="spending-summary-title">Resumen de gastos</h2>
      {body}
    </section>
  );
}
