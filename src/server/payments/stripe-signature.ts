// Stripe's webhook signature: the Stripe-Signature header is `t=<unix seconds>,v1=<hex>[,v1=…]`, each v1
// an HMAC-SHA256 of `${t}.${raw body}` with the endpoint's secret (STRIPE_WEBHOOK_SECRET). An event older
// than the tolerance is refused even when signed: a captured request cannot be replayed later.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Stripe's own libraries' default. */
export const SIGNATURE_TOLERANCE_S = 300;

export function signPayload(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
}

/** The header Stripe would send for this body at this time (tests and the local fake sign with it). */
export function signatureHeader(secret: string, timestamp: number, rawBody: string): string {
  return `t=${timestamp},v1=${signPayload(secret, timestamp, rawBody)}`;
}

function parseHeader(header: string): { t: number; v1: string[] } | null {
  let t = Number.NaN;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) t = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) v1.push(value.toLowerCase());
  }
  return Number.isFinite(t) && v1.length > 0 ? { t, v1 } : null;
}

/** True when one v1 signature matches (compared in constant time) and t is within the tolerance of now. */
export function verifyStripeSignature(header: string | undefined, rawBody: string, secret: string, nowMs: number, toleranceS = SIGNATURE_TOLERANCE_S): boolean {
  const parsed = header ? parseHeader(header) : null;
  if (!parsed) return false;
  if (Math.abs(nowMs / 1000 - parsed.t) > toleranceS) return false;
  const want = Buffer.from(signPayload(secret, parsed.t, rawBody), 'hex');
  // Every candidate is compared (no early exit), each in constant time.
  let matched = false;
  for (const sig of parsed.v1) {
    const got = Buffer.from(sig, 'hex');
    if (got.length === want.length && timingSafeEqual(got, want)) matched = true;
  }
  return matched;
}
