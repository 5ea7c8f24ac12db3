// Builds the API on a fresh database per test file: in-memory PGlite always, and PostgreSQL too when
// DATABASE_URL is set (a throwaway cc_test_<random> database on that server, dropped afterwards). In CI
// without DATABASE_URL the PostgreSQL half still runs, and fails saying why (tests/tools/postgres.ts).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { solveChallenge } from 'altcha-lib/v1';
import { createApp } from '../../../src/server/app';
import type { AppConfig } from '../../../src/server/context';
import { createDb, type Database } from '../../../src/server/db/client';
import { runMigrations } from '../../../src/server/db/migrate';
import { seed } from '../../../src/server/seed';
import { memoryFileStore, type FileStore } from '../../../src/server/files/file-store';
import { devMailboxMailer, type Mailer } from '../../../src/server/mail/mailer';
import { postgresRule, postgresUrl } from '../../tools/postgres';

export type DriverName = 'pglite' | 'pg';
export const DRIVERS: DriverName[] = postgresRule() === 'skip' ? ['pglite'] : ['pglite', 'pg'];

export interface ApiResult {
  status: number;
  headers: Headers;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary envelopes
  text: string;
}

export interface CallOptions {
  body?: unknown;
  /** Sent as-is (no JSON encoding). */
  raw?: string;
  token?: string;
  headers?: Record<string, string>;
  /** The client address the harness's proxy reports (X-Forwarded-For; the app runs with TRUST_PROXY on). */
  ip?: string;
  /** The socket's peer address the app sees (default 127.0.0.1: the proxy on this machine, or a local browser). */
  socket?: string;
  /** Connected straight to the server, not through the proxy: no X-Forwarded-For (a browser on this machine, with `socket` left alone). */
  direct?: boolean;
}

/** The bindings @hono/node-server gives a request, for app.request(path, init, socketEnv(…)) outside `call`. */
export function socketEnv(address = '127.0.0.1') {
  return { incoming: { socket: { remoteAddress: address, remoteFamily: address.includes(':') ? 'IPv6' : 'IPv4' } } };
}

export interface Harness {
  driver: DriverName;
  database: Database;
  app: ReturnType<typeof createApp>;
  /** The app's files store (in memory). */
  files: FileStore;
  /** Moves the app's clock forward. */
  advance(ms: number): void;
  call(method: string, path: string, opts?: CallOptions): Promise<ApiResult>;
  /** A user created straight through the API (captcha solved for real), signed in. */
  signUp(prefix?: string): Promise<{ username: string; email: string; password: string; token: string; userId: number }>;
  solveCaptcha(): Promise<string>;
  close(): Promise<void>;
}

let ipCounter = 0;
/** A distinct client address per call site, so per-IP login limits do not leak between tests. */
export function freshIp(): string {
  ipCounter++;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

export function uniqueName(prefix = 'user'): string {
  return `${prefix}${randomBytes(4).toString('hex')}`;
}

async function openDatabase(driver: DriverName): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (driver === 'pglite') {
    const database = await createDb({});
    return { database, drop: async () => undefined };
  }
  const adminUrl = postgresUrl();
  const name = `cc_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await createDb({ databaseUrl: url.toString(), poolMax: 5 });
  return {
    database,
    drop: async () => {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

export async function createHarness(driver: DriverName, config: Partial<AppConfig> = {}, deps: { mailer?: Mailer } = {}): Promise<Harness> {
  const { database, drop } = await openDatabase(driver);
  await runMigrations(database);
  await seed(database.db);
  let offset = 0;
  const clock = () => new Date(Date.now() + offset);
  const files = memoryFileStore();
  const app = createApp({
    db: database.db,
    files,
    mailer: deps.mailer ?? devMailboxMailer(database.db),
    clock,
    listen: database.listen,
    // Small proof of work keeps sign-ups fast; the registration test checks the real default.
    config: { trustProxy: true, captchaMaxNumber: 2_000, ...config },
  });

  const call: Harness['call'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.direct ? {} : { 'x-forwarded-for': opts.ip ?? freshIp() }), ...opts.headers };
    let body: string | undefined;
    if (opts.raw !== undefined) body = opts.raw;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    if (opts.token) headers['x-access-token'] = opts.token;
    const res = await app.request(path, { method, headers, body }, socketEnv(opts.socket));
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON (HTML pages, static files): callers read `text`
    }
    return { status: res.status, headers: res.headers, json, text };
  };

  const solveCaptcha = async () => {
    const { json } = await call('GET', '/api/v2/captcha');
    const ch = json.response as { algorithm: string; challenge: string; salt: string; signature: string; maxnumber: number };
    const solution = await solveChallenge(ch.challenge, ch.salt, ch.algorithm, ch.maxnumber).promise;
    if (!solution) throw new Error('captcha sin solución');
    const payload = { algorithm: ch.algorithm, challenge: ch.challenge, number: solution.number, salt: ch.salt, signature: ch.signature };
    return Buffer.from(JSON.stringify(payload)).toString('base64');
  };

  const signUp: Harness['signUp'] = async (prefix = 'user') => {
    const username = uniqueName(prefix);
    const email = `${username}@example.com`;
    const password = 'contraseña-segura-1';
    const created = await call('POST', '/api/v2/create_user', {
      body: { user: { username, email, password }, captcha: await solveCaptcha() },
    });
    if (created.status !== 200) throw new Error(`create_user: ${created.text}`);
    const login = await call('POST', '/api/v2/login', { body: { user: { login: username, password } } });
    if (login.status !== 200) throw new Error(`login: ${login.text}`);
    return { username, email, password, token: login.json.response.token, userId: login.json.response.user_id };
  };

  return {
    driver,
    database,
    app,
    files,
    advance: (ms) => {
      offset += ms;
    },
    call,
    signUp,
    solveCaptcha,
    close: async () => {
      await database.close();
      await drop();
    },
  };
}
