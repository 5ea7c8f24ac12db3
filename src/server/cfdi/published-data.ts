// Looks up, for a set of CFDI at once, the published data the rule engine's CFDI40118 / CFDI40138 /
// CFDI40143 need (rules/published-lists.ts): the exchange rates of their currencies and dates (the
// exchange_rates table: Banxico's FIX cached, or entered by staff) and which of their RFCs are on
// SAT's list of cancelled RFCs (inactive_rfcs, the list imported under a name with "cancelados").
// One query for the rates and one for the RFCs, whatever the number of CFDI, so an import batch
// pays two round trips, not two per file. Only SAT's Cancelados list counts: an RFC on the 69-B or
// "no localizados" list is still registered (it may not deduct, but it is not cancelled).
import { and, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { exchangeRates, inactiveRfcs } from '../db/schema';
import { addDays, LOOKBACK_DAYS } from '../lib/rate-lookback';
import type { CfdiData } from './read';
import type { ListFacts, PublishedLists } from './rules';
import { rateDateOf, rfcsOf } from './rules/published-lists';

/** A list of inactive_rfcs that is SAT's list of cancelled RFCs (its name, accents and case aside). */
export function isCancelledList(name: string): boolean {
  return name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toUpperCase().includes('CANCELAD');
}

/** What the published-data rules read of an imported CFDI; null for the versions before 4.0 (the matrix is 4.0's). */
export function listFactsOf(c: CfdiData): ListFacts | null {
  if (c.version !== '4.0') return null;
  return { fecha: c.fecha, moneda: c.moneda, tipoCambio: c.tipoCambio, confirmacion: c.confirmacion, emisorRfc: c.issuer.rfc, receptorRfc: c.receiver.rfc };
}

/** The rates and cancelled RFCs `facts` ask about, as the engine's synchronous lookups. */
export async function lookUpPublishedData(db: Db, facts: readonly ListFacts[]): Promise<PublishedLists> {
  const wanted = new Map<string, string[]>(); // currency|date → candidate dates, newest first
  const currencies = new Set<string>();
  const dates = new Set<string>();
  for (const f of facts) {
    const date = rateDateOf(f);
    if (!date) continue;
    const key = `${f.moneda}|${date}`;
    if (wanted.has(key)) continue;
    // A day without publication (weekend, holiday) uses the latest one before it, as rates.ts does.
    const candidates = Array.from({ length: LOOKBACK_DAYS + 1 }, (_, i) => addDays(date, -i));
    wanted.set(key, candidates);
    currencies.add(f.moneda);
    for (const d of candidates) dates.add(d);
  }
  const rfcs = [...new Set(facts.flatMap(rfcsOf))];

  const [rateRows, rfcRows] = await Promise.all([
    currencies.size === 0
      ? Promise.resolve([])
      : db
          .select({ base: exchangeRates.base, date: exchangeRates.date, rate: exchangeRates.rate })
          .from(exchangeRates)
          .where(and(inArray(exchangeRates.base, [...currencies]), inArray(exchangeRates.date, [...dates]))),
    rfcs.length === 0
      ? Promise.resolve([])
      : db.select({ rfc: inactiveRfcs.rfc, list: inactiveRfcs.list }).from(inactiveRfcs).where(inArray(inactiveRfcs.rfc, rfcs)),
  ]);

  const published = new Map(rateRows.map((r) => [`${r.base}|${r.date}`, r.rate]));
  const rates = new Map<string, string>();
  for (const [key, candidates] of wanted) {
    const currency = key.slice(0, key.indexOf('|'));
    const found = candidates.map((d) => published.get(`${currency}|${d}`)).find((r) => r !== undefined);
    if (found !== undefined) rates.set(key, found);
  }
  const cancelled = new Set(rfcRows.filter((r) => isCancelledList(r.list)).map((r) => r.rfc));
  return {
    rate: (currency, date) => rates.get(`${currency}|${date}`),
    cancelledRfc: (rfc) => cancelled.has(rfc),
  };
}
