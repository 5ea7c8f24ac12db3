// Security headers on every response, API and static alike (ASVS 14.4; CSP without inline script).
import type { MiddlewareHandler } from 'hono';
import { readStripeEnv } from '../config';
import { isTls } from './client-ip';

export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'; " +
  "connect-src 'self'; worker-src 'self' blob:; manifest-src 'self'; object-src 'none'; base-uri 'none'; " +
  "frame-ancestors 'none'; form-action 'self'";

/**
 * With Stripe's browser checkout on (both keys set), the CSP lets in Stripe.js (from STRIPE_JS_URL), its card
 * field and 3-D Secure frames and its API; without it, none of Stripe's origins.
 */
export function cspFor(stripeJsUrl: string | null): string {
  if (!stripeJsUrl) return CSP;
  const js = new URL(stripeJsUrl).origin;
  const api = js === 'https://js.stripe.com' ? 'https://api.stripe.com' : `https://api.stripe.com ${js}`;
  return CSP.replace("script-src 'self'", `script-src 'self' ${js}`)
    .replace("connect-src 'self'", `connect-src 'self' ${api}; frame-src ${js} https://hooks.stripe.com`);
}

/** Stripe.js's address when the browser checkout is on (config.ts readStripeEnv), else null. */
export function stripeJsUrlFromEnv(): string | null {
  const e = readStripeEnv();
  return e.secretKey && e.publishableKey ? e.jsUrl : null;
}

const HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(self), geolocation=(self), microphone=()',
};

export function securityHeaders(trustProxy: boolean, stripeJsUrl: string | null = stripeJsUrlFromEnv()): MiddlewareHandler {
  const csp = cspFor(stripeJsUrl);
  return async (c, next) => {
    await next();
    const h = c.res.headers;
    h.set('Content-Security-Policy', csp);
    for (const [k, v] of Object.entries(HEADERS)) h.set(k, v);
    if (isTls(c, trustProxy)) h.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  };
}
