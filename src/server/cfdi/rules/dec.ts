// Exact decimals for SAT's arithmetic rules (Anexo 20: sums "al redondeo", importe limits truncated
// or rounded up): BigInt scaled integers, so 18-digit amounts with 6 decimals stay exact. Values
// that are not decimals come back as null and the rule that needed them is skipped (the XSD, not
// the matrix, is what refuses a malformed number).

export interface Dec {
  /** The digits without the point, signed. */
  u: bigint;
  /** How many of them are decimals. */
  s: number;
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const POW10: bigint[] = [];
function pow10(n: number): bigint {
  let p = POW10[n];
  if (p === undefined) {
    p = 10n ** BigInt(n);
    POW10[n] = p;
  }
  return p;
}

export function dec(s: string | null | undefined): Dec | null {
  if (s === null || s === undefined || s.length > 60 || !DECIMAL.test(s)) return null;
  const negative = s.charCodeAt(0) === 45; // '-'
  const body = s.replace(/^[+-]/, '');
  const dot = body.indexOf('.');
  const int = dot < 0 ? body : body.slice(0, dot);
  const frac = dot < 0 ? '' : body.slice(dot + 1);
  const u = BigInt(`${int || '0'}${frac}`);
  return { u: negative ? -u : u, s: frac.length };
}

/** Decimals written after the point ("1.50" → 2, "3" → 0); -1 when not a decimal. */
export function decimalsOf(s: string): number {
  if (!DECIMAL.test(s)) return -1;
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
}

function align(a: Dec, b: Dec): [bigint, bigint, number] {
  if (a.s === b.s) return [a.u, b.u, a.s];
  if (a.s > b.s) return [a.u, b.u * pow10(a.s - b.s), a.s];
  return [a.u * pow10(b.s - a.s), b.u, b.s];
}

export const ZERO: Dec = { u: 0n, s: 0 };

export function add(a: Dec, b: Dec): Dec {
  const [x, y, s] = align(a, b);
  return { u: x + y, s };
}

export function sub(a: Dec, b: Dec): Dec {
  const [x, y, s] = align(a, b);
  return { u: x - y, s };
}

export function mul(a: Dec, b: Dec): Dec {
  return { u: a.u * b.u, s: a.s + b.s };
}

export function cmp(a: Dec, b: Dec): number {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function sign(a: Dec): number {
  return a.u < 0n ? -1 : a.u > 0n ? 1 : 0;
}

/** Half a unit of the last written decimal: 10^-s / 2, as Anexo 20's limits use. */
export function halfUnit(s: number): Dec {
  return { u: 5n, s: s + 1 };
}

type Mode = 'half' | 'floor' | 'ceil';

/** Rounded to n decimals: half away from zero (SAT's "redondeo"), toward -∞ (truncating a positive) or +∞. */
export function round(a: Dec, n: number, mode: Mode = 'half'): Dec {
  if (a.s <= n) return a;
  const div = pow10(a.s - n);
  let q = a.u / div; // truncates toward zero
  const r = a.u - q * div;
  if (r !== 0n) {
    if (mode === 'half') {
      const twice = (r < 0n ? -r : r) * 2n;
      if (twice >= div) q += a.u < 0n ? -1n : 1n;
    } else if (mode === 'floor') {
      if (r < 0n) q -= 1n;
    } else if (r > 0n) {
      q += 1n;
    }
  }
  return { u: q, s: n };
}
