// The exchange-rate port (spec §9, DESIGN §2): MXN per unit of a foreign currency on a date. Two adapters:
// the rates table (manual entry, the embedded default) and Banxico's FIX series, cached into that table.
import { and, desc, eq, gte, lte } from 'drizzle-orm';
import type { Currency } from '../../domain/currency';
import type { Db } from '../db/client';
import { exchangeRates } from '../db/schema';
import { addDays, LOOKBACK_DAYS } from '../lib/rate-lookback';

export type ForeignCurrency = Exclude<Currency, 'MXN'>;
export type RateSourceName = 'banxico' | 'manual';

export interface Rate {
  base: ForeignCurrency;
  /** The publication date used, yyyy-mm-dd (the latest on or before the asked date, within 7 days). */
  date: string;
  rate: number;
  source: RateSourceName;
}

export interface RateSource {
  readonly kind: RateSourceName;
  /** null when no rate is known for that date (nor for the 7 days before it). */
  rateFor(base: ForeignCurrency, date: string): Promise<Rate | null>;
}

const toRate = (r: { base: string; date: string; rate: string; source: string }): Rate => ({
  base: r.base as ForeignCurrency,
  date: r.date,
  rate: Number(r.rate),
  source: r.source === 'banxico' ? 'banxico' : 'manual',
});

async function fromTable(db: Db, base: ForeignCurrency, date: string, lookback: number): Promise<Rate | null> {
  const [row] = await db
    .select({ base: exchangeRates.base, date: exchangeRates.date, rate: exchangeRates.rate, source: exchangeRates.source })
    .from(exchangeRates)
    .where(and(eq(exchangeRates.base, base), lte(exchangeRates.date, date), gte(exchangeRates.date, addDays(date, -lookback))))
    .orderBy(desc(exchangeRates.date))
    .limit(1);
  return row ? toRate(row) : null;
}

/** Staff entry (PUT /api/v3/exchange_rates): overrides whatever the table held for that day. */
export async function setManualRate(db: Db, base: ForeignCurrency, date: string, rate: number, now: Date): Promise<Rate> {
  const value = rate.toFixed(6);
  await db
    .insert(exchangeRates)
    .values({ base, date, rate: value, source: 'manual', updatedAt: now })
    .onConflictDoUpdate({
      target: [exchangeRates.base, exchangeRates.date],
      set: { rate: value, source: 'manual', updatedAt: now },
    });
  return { base, date, rate: Number(value), source: 'manual' };
}

export function manualRates(db: Db): RateSource {
  return { kind: 'manual', rateFor: (base, date) => fromTable(db, base, date, LOOKBACK_DAYS) };
}

/** Banxico SIE series of the FIX rate (pesos per unit) for each currency of the panel. */
export const BANXICO_SERIES: Record<ForeignCurrency, string> = {
  USD: 'SF43718',
  EUR: 'SF46410',
  GBP: 'SF46407',
  JPY: 'SF46406',
  CAD: 'SF60632',
};
export const BANXICO_DEFAULT_URL = 'https://www.banxico.org.mx/SieAPIRest/service/v1';

export interface BanxicoOptions {
  token: string;
  url?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

interface BanxicoBody {
  bmx?: { series?: { idSerie?: string; datos?: { fecha?: string; dato?: string }[] }[] };
}

/** Publications of the answer as yyyy-mm-dd → rate; 'N/E' (no publication) and junk are skipped. */
export function parseBanxico(body: unknown): Map<string, number> {
  const out = new Map<string, number>();
  for (const serie of (body as BanxicoBody)?.bmx?.series ?? []) {
    for (const d of serie.datos ?? []) {
      const date = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(d.fecha ?? '');
      const rate = Number((d.dato ?? '').replace(/,/g, ''));
      if (date && Number.isFinite(rate) && rate > 0) out.set(`${date[3]}-${date[2]}-${date[1]}`, rate);
    }
  }
  return out;
}

export function banxicoRates(db: Db, opts: BanxicoOptions): RateSource {
  const url = (opts.url || BANXICO_DEFAULT_URL).replace(/\/+$/, '');
  const doFetch = opts.fetch ?? fetch;
  return {
    kind: 'banxico',
    async rateFor(base, date) {
      // A rate of that very day (cached or entered by staff) needs no call.
      const exact = await fromTable(db, base, date, 0);
      if (exact) return exact;
      const from = addDays(date, -LOOKBACK_DAYS);
      let published: Map<string, number>;
      try {
        const res = await doFetch(`${url}/series/${BANXICO_SERIES[base]}/datos/${from}/${date}`, {
          headers: { 'Bmx-Token': opts.token, Accept: 'application/json' },
          signal: AbortSignal.timeout(opts.timeoutMs ?? 5_000),
        });
        if (!res.ok) throw new Error(`Banxico respondió ${res.status}`);
        published = parseBanxico(await res.json());
      } catch (err) {
        console.error('[tipo de cambio] Banxico no disponible:', (err as Error).message);
        return fromTable(db, base, date, LOOKBACK_DAYS);
      }
      if (published.size > 0) {
        await db
          .insert(exchangeRates)
          .values([...published].map(([d, r]) => ({ base, date: d, rate: r.toFixed(6), source: 'banxico' })))
          // Never overwrite a staff entry.
          .onConflictDoNothing();
      }
      return fromTable(db, base, date, LOOKBACK_DAYS);
    },
  };
}

/** Which adapter the app uses: Banxico when a token is configured, else the table. */
export function rateSourceFor(db: Db, config: { banxicoToken?: string; banxicoUrl?: string }): RateSource {
  return config.banxicoToken ? banxicoRates(db, { token: config.banxicoToken, url: config.banxicoUrl }) : manualRates(db);
}

