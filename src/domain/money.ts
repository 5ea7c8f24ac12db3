// Money as the spec shows it (§9): "$1,234.56", es-MX, two decimals, thousands separators.
// Made on first use: building an es-MX formatter loads ICU data (~100 ms on a cheap phone), which pages
// that show no amount (the start and login screens) should not pay for while they load.
let twoDecimals: Intl.NumberFormat | undefined;

/** "1,234.56": es-MX grouping, two decimals, no sign or currency. */
export function formatTwoDecimals(n: number): string {
  twoDecimals ??= new Intl.NumberFormat('es-MX', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return twoDecimals.format(n);
}

export function formatMoney(amount: number | string): string {
  const n = typeof amount === 'string' ? Number(amount) : amount;
  if (!Number.isFinite(n)) return '$0.00';
  const abs = formatTwoDecimals(Math.abs(n));
  return `${n < 0 ? '-' : ''}$${abs}`;
}

/** Other currencies carry their code: "US$120.00 USD" style, simplified to "$120.00 USD". */
export function formatForeign(amount: number, currency: string): string {
  return currency === 'MXN' ? formatMoney(amount) : `${formatMoney(amount)} ${currency}`;
}

/** Round half away from zero to cents, avoiding binary drift (1.005 → 1.01). */
export function roundCents(n: number): number {
  return Math.sign(n) * Math.round((Math.abs(n) + Number.EPSILON) * 100) / 100;
}
