// How far back a day without a published exchange rate looks: the rates service and the CFDI rules agree on it.
/** A date without publication (weekend, holiday) uses the latest previous one within this many days. */
export const LOOKBACK_DAYS = 7;

export function addDays(isoDate: string, days: number): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}
