// Exact decimal arithmetic on the strings money arrives in (CFDI attributes, numeric columns):
// BigInt scaled integers, so "6078640.234906 × 2378590.234907" rounds to the right cent, which
// binary floats cannot promise. Rounding is half away from zero, as SAT and roundCents do.

/** A decimal as written in XSD xs:decimal: optional sign, digits, optional fraction (".5" and "5." too). */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

interface Scaled {
  /** The digits without the point, signed. */
  units: bigint;
  /** How many of them are decimals. */
  scale: number;
}

export function isDecimal(s: string): boolean {
  return DECIMAL.test(s);
}

function parse(s: string): Scaled | null {
  const t = s.trim();
  if (!DECIMAL.test(t)) return null;
  const negative = t.startsWith('-');
  const body = t.replace(/^[+-]/, '');
  const [int = '', frac = ''] = body.split('.');
  const units = BigInt(`${int || '0'}${frac}`);
  return { units: negative ? -units : units, scale: frac.length };
}

/** Divides by 10^shift, rounding half away from zero. */
function shiftRound(units: bigint, shift: number): bigint {
  if (shift <= 0) return units * 10n ** BigInt(-shift);
  const div = 10n ** BigInt(shift);
  const abs = units < 0n ? -units : units;
  const q = (abs + div / 2n) / div;
  return units < 0n ? -q : q;
}

/** Whole cents of a decimal string (half away from zero), or null when it is not a decimal. */
export function toCents(s: string): bigint | null {
  const d = parse(s);
  return d ? shiftRound(d.units, d.scale - 2) : null;
}

/** Whole cents of a × b, computed exactly and rounded once; null when either is not a decimal. */
export function productCents(a: string, b: string): bigint | null {
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return null;
  return shiftRound(x.units * y.units, x.scale + y.scale - 2);
}

/** "1234.50", "-0.07": cents as a plain decimal string with two decimals. */
export function formatCents(cents: bigint): string {
  const negative = cents < 0n;
  const abs = (negative ? -cents : cents).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${abs.slice(0, -2)}.${abs.slice(-2)}`;
}

/** A decimal string rounded to two decimals ("1000" → "1000.00"), or null when it is not a decimal. */
export function toMoney(s: string): string | null {
  const c = toCents(s);
  return c === null ? null : formatCents(c);
}
