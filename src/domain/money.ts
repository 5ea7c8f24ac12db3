// Money as the spec shows it (§9): "$1,234.56", es-MX, two decimals, thousands separators.
const MXN = new Intl.NumberFormat('es-MX', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatMoney(amount: number | string): string {
  const n = typeof amount === 'string' ? Number(amount) : amount;
  if (!Number.isFinite(n)) return '$0.00';
  const abs = MXN.format(Math.abs(n));
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
