// 'Resumen de gastos' (spec §2 spending summary card): donut of the month's spending by category and
// the top 5 categories and establishments, from the analytics endpoint; fetched again when the
// server's copy of the month changes (a pull, an acknowledged outbox operation). The loaded flag is
// set on success or failure (spec §4); offline or on failure the same figures come from the month's
// tickets on the device. The pieces (SpendingBreakdownView, useCompanyNames) serve the annual view too.
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useState } from 'react';
import { monthKey } from '../../domain/dates';
import type { TopItem } from '../../domain/analytics';
import { formatMoney } from '../../domain/money';
import { db } from '../../offline/db';
import { ApiError } from '../../offline/http';
import { api } from '../api/client';
import { monthOfYear } from '../charts/chart-model';
import { DonutChart } from '../charts/charts';
import { TXT } from '../strings';
import { Button } from '../ui/button';
import { Skeleton } from '../ui/skeleton';
import { useOnline } from '../use-online';
import { deviceMonthSpending } from './device-analytics';
import { querySyncedVersion } from './month-query';
import { changeAgainst, percentText, spendingSummary, TREND, type SpendingAnswer, type SpendingSummary as Summary } from './spending-summary-model';

type Outcome = { status: 'done'; summary: Summary | null } | { status: 'offline' } | { status: 'error'; message: string };
/** Not loaded until an answer (or failure) for this account and month arrived; a refresh keeps the old one. */
type State = { loaded: false } | ({ loaded: true } & Outcome);

function useSpendingSummary(rfc: string, year: number, month: number): { state: State; retry: () => void } {
  const online = useOnline();
  const period = `${rfc}/${year}/${month}`;
  const [last, setLast] = useState<{ period: string; outcome: Outcome } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const version = useLiveQuery(() => querySyncedVersion(db, rfc, monthKey(year, month)), [rfc, year, month]);

  // Offline the answer is known without asking (adjusted while rendering); it stays until the server answers again.
  if (!online && version !== undefined && (last?.period !== period || last.outcome.status !== 'offline')) setLast({ period, outcome: { status: 'offline' } });

  useEffect(() => {
    if (version === undefined || !online) return;
    let live = true;
    api.get<SpendingAnswer>(`/api/v3/analytics/spending/${encodeURIComponent(rfc)}/${year}/${month}`).then(
      (answer) => live && setLast({ period, outcome: { status: 'done', summary: spendingSummary(answer) } }),
      (err: unknown) => {
        if (!live) return;
        const outcome: Outcome =
          err instanceof ApiError && err.offline ? { status: 'offline' } : { status: 'error', message: err instanceof Error ? err.message : '' };
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

/** Supported companies' names by short name (how the server names a venue), from Dexie. */
export function useCompanyNames(): ReadonlyMap<string, string> {
  const companies = useLiveQuery(() => db.companies.toArray(), []);
  return useMemo(() => new Map((companies ?? []).map((c) => [c.short_name, c.name])), [companies]);
}

function TopList({ title, items, showChange, pastWords }: { title: string; items: TopItem[]; showChange: boolean; pastWords: string }) {
  return (
    <section className="spending-summary__list" aria-label={title}>
      <h3>{title}</h3>
      {items.length === 0 ? (
        <p className="muted">{TXT.noData}</p>
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
                {showChange ? (
                  <span className={`spending-summary__change spending-summary__change--${item.trend} tabular`}>
                    <span aria-hidden="true">{trend.arrow}</span> <span className="visually-hidden">{`${trend.words} `}</span>
                    {percentText(item.change)}
                    <span className="visually-hidden">{` ${pastWords}`}</span>
                  </span>
                ) : (
                  <span className="spending-summary__change muted" aria-hidden="true">
                    —
                  </span>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

/**
 * Donut plus 'Principales categorías' and 'Principales establecimientos' (top 5 with amount, share
 * bar and change against the previous period). `period` names that period for the change.
 */
export function SpendingBreakdownView({ summary, period, caption, defer = false }: { summary: Summary; period: 'month' | 'year'; caption: string; defer?: boolean }) {
  const pastWords = changeAgainst(period);
  return (
    <div className="spending-summary__body">
      <DonutChart slices={summary.donut} caption={caption} defer={defer} />
      <div className="spending-summary__lists">
        <TopList title={TXT.topCategories} items={summary.categories} showChange={summary.hasPast} pastWords={pastWords} />
        <TopList title={TXT.topVenues} items={summary.venues} showChange={summary.hasPast} pastWords={pastWords} />
      </div>
      {!summary.hasPast && <p className="muted spending-summary__note">{TXT.noPastChange}</p>}
    </div>
  );
}

/** Shaped like the donut and the two lists. */
export function SpendingSkeleton() {
  return (
    <div className="spending-summary__body" role="status" aria-label={TXT.loading}>
      <Skeleton width={184} height={184} radius={92} />
      <div className="spending-summary__lists">
        {[0, 1].map((i) => (
          <div key={i} className="stack" style={{ gap: 12 }}>
            <Skeleton width="50%" height={20} />
            <Skeleton />
            <Skeleton />
            <Skeleton width="70%" />
          </div>
        ))}
      </div>
    </div>
  );
}

export function SpendingSummaryCard({ rfc, year, month }: { rfc: string; year: number; month: number }) {
  const { state, retry } = useSpendingSummary(rfc, year, month);
  const companies = useCompanyNames();
  // Without the server's answer, the same figures from the month's tickets on this device.
  const fromDevice = state.loaded && state.status !== 'done';
  const device = useLiveQuery(
    async () => {
      if (!fromDevice) return null;
      const spending = await deviceMonthSpending(db, rfc, year, month, companies);
      return { seen: spending !== null, summary: spending && spendingSummary(spending) };
    },
    [fromDevice, rfc, year, month, companies],
  );
  const caption = `Gastos por categoría de ${monthOfYear(month, year)}`;
  const view = (summary: Summary | null) =>
    summary ? <SpendingBreakdownView summary={summary} period="month" caption={caption} defer /> : <p className="muted">{TXT.noData}</p>;

  // While loading, one line: the card sits under the month's table, which grows when its rows arrive,
  // and a tall placeholder moved by it would be a large layout shift (Lighthouse CLS).
  const loading = (
    <p className="muted" role="status">
      <span className="spinner" aria-hidden="true" /> {TXT.loading}
    </p>
  );
  let body;
  if (!state.loaded) {
    body = loading;
  } else if (state.status === 'done') {
    body = view(state.summary);
  } else {
    const offline = state.status === 'offline';
    const failure = (message: string) => (
      <div className="row row--between" role="alert">
        <span>{message}</span>
        <Button variant="secondary" onClick={retry}>
          {TXT.retry}
        </Button>
      </div>
    );
    if (!device) body = loading;
    else if (!device.seen) {
      body = offline ? (
        <p className="muted" role="status">
          {TXT.summaryUnseenOffline}
        </p>
      ) : (
        failure(state.status === 'error' && state.message ? state.message : TXT.summaryFailed)
      );
    } else {
      body = (
        <>
          {offline ? (
            <p className="muted spending-summary__note" role="status">
              {TXT.summaryOffline}
            </p>
          ) : (
            failure(TXT.summaryStale)
          )}
          {view(device.summary)}
        </>
      );
    }
  }
  return (
    <section className="card stack spending-summary" aria-labelledby="spending-summary-title">
      <h2 id="spending-summary-title">{TXT.spendingSummary}</h2>
      {body}
    </section>
  );
}
