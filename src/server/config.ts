// Server settings from the environment (README lists them); defaults give the embedded setup.
import { availableParallelism, networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import type { AppConfig } from './context';
import { DEFAULT_CONFIG } from './context';
import { SAT_ESTADO_PRODUCTION_URL } from './sat-status/estado-cfdi';

/**
 * The process's environment: the one place the server reads it. Every reader below defaults to it; a
 * test passes its own object instead. Read at each call, so a setting changed at run time is seen.
 */
export function processEnv(): NodeJS.ProcessEnv {
  return process.env;
}

export interface ServerEnv {
  port: number;
  /** Address to bind: HOST; else 127.0.0.1 in the demo (dev tools on), all interfaces otherwise. */
  host?: string;
  dataDir: string;
  databaseUrl?: string;
  smtpUrl?: string;
  mailFrom?: string;
  supportPassword?: string;
  /** SAT's CFDI status service; unset = never call SAT (dev, tests). SAT_ESTADO_URL, or SAT_ESTADO=on for production's. */
  satEstadoUrl?: string;
  /** PUBLIC_URL was given (else links go to the listening address, and the server says so at start). */
  publicUrlSet: boolean;
  app: AppConfig;
}

/**
 * The one rule for the development tools (/dev/mailbox shows every reset link): they exist only in the
 * embedded demo, so any production setting turns them off. Empty values count as unset.
 */
export function devToolsAllowed(env: NodeJS.ProcessEnv): boolean {
  return !env.DATABASE_URL && !env.SMTP_URL && !env.PUBLIC_URL && env.NODE_ENV !== 'production';
}

/**
 * The origin a person reaches the server at, from the address it listens on: links in e-mails and QR
 * codes when PUBLIC_URL is not set. A wildcard bind (HOST=0.0.0.0, to try the demo on a phone) links
 * to this machine's first LAN address, which the phone can open.
 */
export function listenOrigin(host: string | undefined, port: number, interfaces = networkInterfaces()): string {
  let name = host || '0.0.0.0';
  if (name === '0.0.0.0' || name === '::') {
    const lan = Object.values(interfaces)
      .flat()
      .find((a) => a && !a.internal && a.family === 'IPv4');
    name = lan?.address ?? 'localhost';
  }
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
}

/** PUBLIC_URL as the base of links: a full http(s) address, without a trailing slash, query or fragment. */
export function parsePublicUrl(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new Error(`PUBLIC_URL debe ser una dirección http(s) completa, por ejemplo https://cuentasclaras.mx (se recibió «${value}»)`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** APP_STORE_URL / PLAY_STORE_URL: an https address, else the server does not start (a typo would show a broken link). */
export function parseStoreUrl(name: string, value: string | undefined): string | undefined {
  if (!value?.trim()) return undefined;
  const url = URL.canParse(value.trim()) ? new URL(value.trim()) : null;
  if (!url || url.protocol !== 'https:') throw new Error(`${name} debe ser una dirección https completa, por ejemplo https://apps.apple.com/mx/app/… (se recibió «${value}»)`);
  return url.href;
}

export function readEnv(env: NodeJS.ProcessEnv = processEnv()): ServerEnv {
  const smtpUrl = env.SMTP_URL || undefined;
  const port = Number(env.PORT) || 8080;
  const devTools = devToolsAllowed(env);
  const host = env.HOST || (devTools ? '127.0.0.1' : undefined);
  return {
    port,
    host,
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    smtpUrl,
    mailFrom: env.MAIL_FROM || undefined,
    supportPassword: env.SUPPORT_PASSWORD || undefined,
    satEstadoUrl: env.SAT_ESTADO_URL || (env.SAT_ESTADO === 'on' ? SAT_ESTADO_PRODUCTION_URL : undefined),
    publicUrlSet: Boolean(env.PUBLIC_URL),
    app: {
      ...DEFAULT_CONFIG,
      // An explicit HOST is linked as given (a browser keeps its session per origin); the default demo links to localhost.
      publicUrl: env.PUBLIC_URL ? parsePublicUrl(env.PUBLIC_URL) : listenOrigin(env.HOST || (devTools ? 'localhost' : undefined), port),
      trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
      staticDir: resolve(env.STATIC_DIR || './dist'),
      devTools,
      altchaHmacKey: env.ALTCHA_HMAC_KEY || undefined,
      banxicoToken: env.BANXICO_TOKEN || undefined,
      banxicoUrl: env.BANXICO_URL || undefined,
      appStoreUrl: parseStoreUrl('APP_STORE_URL', env.APP_STORE_URL),
      playStoreUrl: parseStoreUrl('PLAY_STORE_URL', env.PLAY_STORE_URL),
    },
  };
}

/** CC_SECRET_KEY (64 hex digits, the server secret kept out of the database), or null when unset. */
export function readSecretKeyHex(env: NodeJS.ProcessEnv = processEnv()): string | null {
  return env.CC_SECRET_KEY?.trim() || null;
}

/**
 * SAT_CERTS_DIR: folders (comma-separated) of stamping certificates (.cer, DER or PEM) that verify an
 * imported CFDI's SelloSAT, besides the ones shipped in cfdi/pac-certs (cfdi/verify-seals.ts).
 */
export function readSatCertsDirs(env: NodeJS.ProcessEnv = processEnv()): string[] {
  return (env.SAT_CERTS_DIR ?? '')
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean)
    .map((d) => resolve(d));
}

/** SAT sync's portal: SAT_PORTAL=descarga-masiva for SAT's web service (SAT_WS_URL overrides its base URL); else the simulated portal. */
export function readSatPortalEnv(env: NodeJS.ProcessEnv = processEnv()): { portal: 'simulated' | 'descarga-masiva'; wsUrl?: string } {
  return { portal: env.SAT_PORTAL === 'descarga-masiva' ? 'descarga-masiva' : 'simulated', wsUrl: env.SAT_WS_URL || undefined };
}

/** SAT_FIEL_CA: paths (comma-separated) of SAT's CA certificates that may issue an e.firma (cfdi/efirma-proof.ts). */
export function readFielCaPaths(env: NodeJS.ProcessEnv = processEnv()): string[] {
  return (env.SAT_FIEL_CA ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

/**
 * Stripe: STRIPE_SECRET_KEY selects it (else the sandbox provider); STRIPE_API_URL overrides its API's address.
 * STRIPE_PUBLISHABLE_KEY turns on the browser checkout with Stripe.js (loaded from STRIPE_JS_URL);
 * STRIPE_WEBHOOK_SECRET turns on the signed webhook.
 */
export function readStripeEnv(env: NodeJS.ProcessEnv = processEnv()): {
  secretKey?: string;
  apiUrl?: string;
  publishableKey?: string;
  webhookSecret?: string;
  jsUrl: string;
} {
  const read = (name: string) => env[name]?.trim() || undefined;
  return {
    secretKey: read('STRIPE_SECRET_KEY'),
    apiUrl: read('STRIPE_API_URL'),
    publishableKey: read('STRIPE_PUBLISHABLE_KEY'),
    webhookSecret: read('STRIPE_WEBHOOK_SECRET'),
    jsUrl: read('STRIPE_JS_URL') ?? 'https://js.stripe.com/v3/',
  };
}

/** A worker count: unset or empty gives `fallback`; anything else its integer part, 0 when not a number or below 0. */
const workerCount = (value: string | undefined, fallback: number): number =>
  value !== undefined && value !== '' ? Math.max(0, Number.parseInt(value, 10) || 0) : fallback;

/** PDF_WORKERS: threads that render invoice PDFs (cfdi/pdf-pool.ts); default one per core, at most 4; 0 renders in-process. */
export function readPdfWorkers(env: NodeJS.ProcessEnv = processEnv()): number {
  return workerCount(env.PDF_WORKERS, Math.min(4, availableParallelism()));
}

/**
 * PARSE_WORKERS: threads that read uploaded files (imports/parse-pool.ts); default one per core, at most 2;
 * 0 reads in-process. PARSE_BUDGET_MS: each file's time in a worker, when a positive number (else the pool's default).
 */
export function readParsePoolEnv(env: NodeJS.ProcessEnv = processEnv()): { workers: number; budgetMs?: number } {
  const budget = Number(env.PARSE_BUDGET_MS);
  return { workers: workerCount(env.PARSE_WORKERS, Math.min(2, availableParallelism())), budgetMs: budget > 0 ? budget : undefined };
}

/** IMPORT_WORKERS: import jobs this process runs at once (imports/queue.ts); at least 1, the default. */
export function readImportWorkers(env: NodeJS.ProcessEnv = processEnv()): number {
  return Math.max(1, Number.parseInt(env.IMPORT_WORKERS ?? '', 10) || 1);
}

/**
 * WORKERS: API processes sharing the port (node:cluster, main.ts); default 1. More than one needs
 * PostgreSQL: PGlite is a database inside one process.
 */
export function readWorkers(env: NodeJS.ProcessEnv = processEnv()): number {
  const raw = env.WORKERS?.trim();
  if (!raw) return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new Error(`WORKERS debe ser un número entero entre 1 y 64 (se recibió «${raw}»)`);
  if (n > 1 && !env.DATABASE_URL) {
    throw new Error(`WORKERS=${n} necesita PostgreSQL (DATABASE_URL): con PGlite la base de datos vive dentro de un solo proceso, así que el servidor corre con uno.`);
  }
  return n;
}

/** Finkok's demo (sandbox) service: the default FINKOK_URL, so a production account must name its own. */
export const FINKOK_DEMO_URL = 'https://demo-facturacion.finkok.com';

export interface PacEnv {
  pac: 'sandbox' | 'finkok';
  finkok?: { username: string; password: string; url: string; timeoutMs?: number };
}

/**
 * The PAC that stamps and cancels invoices: PAC=finkok with FINKOK_USERNAME and FINKOK_PASSWORD (FINKOK_URL,
 * default Finkok's demo; FINKOK_TIMEOUT_MS per call); anything else, the embedded sandbox PAC.
 */
export function readPacEnv(env: NodeJS.ProcessEnv = processEnv()): PacEnv {
  if ((env.PAC ?? '').trim().toLowerCase() !== 'finkok') return { pac: 'sandbox' };
  const username = env.FINKOK_USERNAME?.trim();
  const password = env.FINKOK_PASSWORD;
  if (!username || !password) throw new Error('PAC=finkok necesita FINKOK_USERNAME y FINKOK_PASSWORD');
  const url = (env.FINKOK_URL?.trim() || FINKOK_DEMO_URL).replace(/\/+$/, '');
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new Error(`FINKOK_URL debe ser una dirección http(s) completa (se recibió «${url}»)`);
  const timeout = Number(env.FINKOK_TIMEOUT_MS);
  return { pac: 'finkok', finkok: { username, password, url, timeoutMs: timeout > 0 ? timeout : undefined } };
}

/** Set by the primary in each API process it forks: its number (1…N); the first one runs the job scheduler. */
export const WORKER_INDEX = 'CC_WORKER_INDEX';

/** This API process's number among WORKERS (1 when the server runs as one process). */
export function readWorkerIndex(env: NodeJS.ProcessEnv = processEnv()): number {
  const n = Number(env[WORKER_INDEX] ?? '1');
  return Number.isInteger(n) && n >= 1 ? n : 1;
}
