// The annual view's data (spec §2 Annual view, §4 "annual data reloads when rfc or date changes"):
// - the year's tickets pulled into Dexie in the background (pullYear), for the table and for later
//   offline visits;
// - the charts' numbers from the server (stats + analytics) when it answers, and otherwise
//   (offline, failing) the same figures computed from the year's tickets on the device, for years
//   this device has pulled whole.
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import type { YearSeries } from '../../domain/analytics';
import { db } from '../../offline/db';
import { pullYear } from '../../offline/pull';
import { ApiError } from '../../offline/http';
import { api } from '../api/client';
import { deviceYearFigures, monthsSeen, yearMonths } from '../tickets/device-analytics';
import { spendingSummary, type SpendingAnswer, type SpendingSummary } from '../tickets/spending-summary-model';
import { useBackOnline, useOnline } from '../use-online';
import { analyticsPath, seriesFromStats, statsPath, type StatsAnswer } from './annual-model';

export type YearSync = { status: 'updating' } | { status: 'done' } | { status: 'offline' } | { status: 'error'; message: string };

const UPDATING: YearSync = { status: 'updating' };

const isOffline = (err: unknown) => (err instanceof ApiError && err.offline) || !navigator.onLine;
const messageOf = (err: unknown) => (err instanceof Error ? err.message : '');

/**
 * Pulls the year into Dexie on open, on retry and when the connection comes back. Waits for `after`
 * (the charts' numbers answered): the server runs one query at a time on PGlite, and the year's
 * tickets are a far bigger answer than its totals, so the charts go first.
 */
export function useYearSync(rfc: string, year: number, attempt: number, after: boolean): { sync: YearSync; seen: boolean | undefined } {
  const [again, setAgain] = useState(0);
  const seen = useLiveQuery(() => monthsSeen(db, rfc, yearMonths(year)), [rfc, year]);
  // One pull per year, attempt and reconnection: until it answers (or while waiting for `after`) the year is updating.
  const pull = `${rfc}/${year}/${attempt}/${again}/${after}`;
  const [answer, setAnswer] = useState<{ pull: string; sync: YearSync } | null>(null);
  const sync = answer && answer.pull === pull ? answer.sync : UPDATING;
  useBackOnline(sync.status === 'offline', () => setAgain((n) => n + 1));

  useEffect(() => {
    if (!after) return;
    let live = true;
    const settle = (s: YearSync) => live && setAnswer({ pull, sync: s });
    pullYear(db, api, rfc, year).then(
      () => settle({ status: 'done' }),
      (err: unknown) => {
        // A 401 is handled by the session (the API client signs out); nothing to show here.
        if (err instanceof ApiError && err.status === 401) settle({ status: 'done' });
        else settle(isOffline(err) ? { status: 'offline' } : { status: 'error', message: messageOf(err) });
      },
    );
    return () => {
      live = false;
    };
  }, [pull, rfc, year, after]);

  return { sync, seen };
}

export interface YearFigures {
  series: YearSeries;
  /** null when the year has no spending ('No hay datos'). */
  summary: SpendingSummary | null;
  source: 'server' | 'device';
}

export type FiguresState =
  | { kind: 'loading' }
  | { kind: 'ready'; figures: YearFigures; notice: null | 'offline' | 'stale' }
  | { kind: 'unseen-offline' }
  | { kind: 'error'; message: string };

type Outcome = { status: 'server'; figures: YearFigures } | { status: 'offline' } | { status: 'error'; message: string };

/**
 * The charts' numbers. Asked again when the outbox changes size (an operation acknowledged means the
 * server's numbers moved); the previous answer stays on screen meanwhile.
 */
export function useYearFigures(rfc: string, year: number, attempt: number, companies: ReadonlyMap<string, string>): FiguresState {
  const online = useOnline();
  const key = `${rfc}/${year}`;
  const [last, setLast] = useState<{ key: string; outcome: Outcome } | null>(null);
  const version = useLiveQuery(() => db.outbox.count(), []);
  // Offline the answer is known without asking (adjusted while rendering); it stays until the server answers again.
  if (!online && version !== undefined && (last?.key !== key || last.outcome.status !== 'offline')) setLast({ key, outcome: { status: 'offline' } });

  useEffect(() => {
    if (version === undefined || !online) return;
    let live = true;
    Promise.all([api.get<{ stats: StatsAnswer }>(statsPath(rfc, year)), api.get<SpendingAnswer>(analyticsPath(rfc, year))]).then(
      ([stats, analytics]) => {
        if (!live) return;
        const figures: YearFigures = { series: seriesFromStats(stats.stats, year), summary: spendingSummary(analytics), source: 'server' };
        setLast({ key, outcome: { status: 'server', figures } });
      },
      (err: unknown) => {
        if (live) setLast({ key, outcome: isOffline(err) ? { status: 'offline' } : { status: 'error', message: messageOf(err) } });
      },
    );
    return () => {
      live = false;
    };
  }, [key, rfc, year, online, attempt, version]);

  const outcome = last && last.key === key ? last.outcome : null;
  const fromDevice = outcome !== null && outcome.status !== 'server';
  const device = useLiveQuery(
    async () => {
      if (!fromDevice) return null;
      const found = await deviceYearFigures(db, rfc, year, companies);
      return { found, key };
    },
    [fromDevice, rfc, year, companies, key],
  );

  if (!outcome) return { kind: 'loading' };
  if (outcome.status === 'server') return { kind: 'ready', figures: outcome.figures, notice: null };
  if (!device || device.key !== key) return { kind: 'loading' };
  if (!device.found) {
    return outcome.status === 'offline' ? { kind: 'unseen-offline' } : { kind: 'error', message: outcome.message };
  }
  const figures: YearFigures = { series: device.found.series, summary: spendingSummary(device.found), source: 'device' };
  return { kind: 'ready', figures, notice: outcome.status === 'offline' ? 'offline' : 'stale' };
}
