// Several API processes, one truth: two real servers (src/server/main.ts, the second with WORKERS=2) on one
// fresh PostgreSQL database behind a round-robin proxy written here. What one process does, the other sees: upload statuses, chat,
// revoked sessions, rate limits, idempotent replays, and an import job runs once. Node only (no browser);
// needs PostgreSQL (DATABASE_URL): skipped without it, except in CI where it fails (tests/tools/postgres.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER } from '../../src/server/db/demo-accounts';
import { USERNAME_CHECKS_PER_MINUTE } from '../../src/server/accounts/username-availability';
import { describePostgres, postgresUrl } from '../tools/postgres';


async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

interface Proc {
  url: string;
  child: ChildProcess;
  log: () => string;
}

async function startServer(databaseUrl: string, dataDir: string, extraEnv: Record<string, string> = {}): Promise<Proc> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: databaseUrl, SMTP_URL: '', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`El servidor terminó al arrancar:\n${output}`);
    const up = await fetch(`${url}/api/v3/plans.json`).then((r) => r.ok, () => false);
    if (up) break;
    if (Date.now() > deadline) throw new Error(`El servidor no respondió a tiempo:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, child, log: () => output };
}

async function stopServer(p: Proc | undefined): Promise<void> {
  if (!p || p.child.exitCode !== null) return;
  const exited = new Promise((r) => p.child.once('exit', r));
  p.child.kill('SIGTERM');
  await exited;
}

/** Round-robin over the backends, streaming both ways (server-sent events included); says who answered. */
function roundRobin(backends: string[]): Promise<{ url: string; server: Server; served: string[] }> {
  let next = 0;
  const served: string[] = [];
  const server = createHttpServer((req, res) => {
    const target = new URL(backends[next++ % backends.length]!);
    served.push(target.port);
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-backend': target.port });
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, served })));
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- the API's envelopes
}

async function call(base: string, path: string, init: RequestInit & { token?: string; body?: BodyInit | null } = {}): Promise<Answer> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('x-access-token', init.token);
  if (typeof init.body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json');
  const res = await fetch(`${base}${path}`, { ...init, headers });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

async function login(base: string): Promise<{ token: string; userId: number }> {
  const r = await call(base, '/api/v2/login', { method: 'POST', body: JSON.stringify({ user: { login: DEMO_USER.username, password: DEMO_USER.password } }) });
  expect(r.status).toBe(200);
  return { token: r.json.response.token, userId: r.json.response.user_id };
}

/** Reads `file` events of an open statuses stream until `done` says so. */
async function fileEvents(res: Response, done: (events: { id: string; status: string }[]) => boolean): Promise<{ id: string; status: string }[]> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: { id: string; status: string }[] = [];
  let buffer = '';
  while (!done(events)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    buffer += value;
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut).split('\n');
      buffer = buffer.slice(cut + 2);
      const data = block.find((l) => l.startsWith('data:'));
      if (block.includes('event: file') && data) events.push(JSON.parse(data.slice(5)));
    }
  }
  await reader.cancel();
  return events;
}

describePostgres('two API processes on one PostgreSQL', () => {
  const adminUrl = postgresUrl();
  const dbName = `cc_mp_${randomBytes(5).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-mp-'));
  let dbUrl = '';
  let a: Proc | undefined;
  let b: Proc | undefined;
  let proxy: Awaited<ReturnType<typeof roundRobin>>;
  let sql: pg.Client;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const u = new URL(adminUrl);
    u.pathname = `/${dbName}`;
    dbUrl = u.toString();
    // One after the other: the second finds the database migrated and seeded (both would wait on the lock anyway).
    // B is itself WORKERS=2 (node:cluster), so three API processes answer in all.
    a = await startServer(dbUrl, join(dataDir, 'a'));
    b = await startServer(dbUrl, join(dataDir, 'b'), { WORKERS: '2' });
    proxy = await roundRobin([a.url, b.url]);
    sql = new pg.Client({ connectionString: dbUrl });
    await sql.connect();
  });

  afterAll(async () => {
    await sql?.end();
    proxy?.server.close();
    await stopServer(a);
    await stopServer(b);
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('an upload made through A shows on a statuses stream opened on B, and its import job runs once', async () => {
    const { token, userId } = await login(a!.url);
    const stream = await fetch(`${b!.url}/api/v3/users/${userId}/files/statuses`, { headers: { 'x-access-token': token } });
    expect(stream.status).toBe(200);
    const form = new FormData();
    const xml = readFileSync('tests/fixtures/cfdi/cfdi40-ingreso-eku-descuento-stamped.xml');
    form.append('file', new Blob([new Uint8Array(xml)]), 'multi-proceso.xml');
    const up = await call(a!.url, `/api/v3/users/${userId}/files`, { method: 'POST', token, body: form });
    expect(up.status).toBe(200);
    const id: string = up.json.response.files[0].id;
    const events = await fileEvents(stream, (ev) => ev.some((e) => e.id === id && !['recibido', 'procesando'].includes(e.status)));
    expect(events.filter((e) => e.id === id).at(-1)?.status).not.toMatch(/^(recibido|procesando)$/);
    // Both processes take import jobs; pg-boss handed this one to exactly one of them, once. The upload's
    // status commits inside the job, and pg-boss marks the job completed just after: wait for that.
    const jobs = async () => (await sql.query(`SELECT state, retry_count FROM pgboss.job WHERE name = 'cfdi-import' AND data->'uploadIds' ? $1`, [id])).rows;
    await expect.poll(jobs, { timeout: 10_000, interval: 100 }).toEqual([{ state: 'completed', retry_count: 0 }]);
  });

  it('a chat message sent through A is read through B', async () => {
    const { token } = await login(a!.url);
    const sent = await call(a!.url, '/api/v3/chat/messages', { method: 'POST', token, body: JSON.stringify({ body: 'Hola desde el proceso A' }) });
    expect(sent.status).toBe(201);
    const read = await call(b!.url, '/api/v3/chat', { token });
    expect(read.status).toBe(200);
    expect(read.text).toContain('Hola desde el proceso A');
  });

  it('a session closed through A is refused by B within a second, though B had it cached', async () => {
    const { token } = await login(a!.url);
    expect((await call(b!.url, '/api/v3/chat', { token })).status).toBe(200);
    expect((await call(a!.url, '/api/v2/logout', { method: 'POST', token, body: '{}' })).status).toBe(200);
    // B's cache keeps a token 5 s: only the bus can make it forget sooner.
    await expect.poll(async () => (await call(b!.url, '/api/v3/chat', { token })).status, { timeout: 1_000, interval: 50 }).toBe(401);
  });

  it('a rate limit counts the calls answered by both processes', async () => {
    const statuses: number[] = [];
    const before = proxy.served.length;
    for (let i = 0; i <= USERNAME_CHECKS_PER_MINUTE.limit; i++) {
      statuses.push((await call(proxy.url, '/api/v2/username_available?username=alguien')).status);
    }
    expect(new Set(proxy.served.slice(before)).size).toBe(2);
    expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('an idempotent request made through A is replayed by B with the same answer', async () => {
    const { token } = await login(a!.url);
    const key = `mp-${randomBytes(6).toString('hex')}`;
    const body = JSON.stringify({ body: 'Una sola vez, aunque lo mande dos veces' });
    const first = await call(a!.url, '/api/v3/chat/messages', { method: 'POST', token, body, headers: { 'idempotency-key': key } });
    const again = await call(b!.url, '/api/v3/chat/messages', { method: 'POST', token, body, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    const chat = await call(b!.url, '/api/v3/chat', { token });
    expect(chat.text.split('Una sola vez').length - 1).toBe(1);
  });
});

describe('WORKERS on PGlite', () => {
  it('is refused with a clear message: PGlite is one process', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cc-mp-lite-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { ...process.env, PORT: String(await freePort()), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', WORKERS: '2' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    const code = await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(output).toContain('WORKERS=2 necesita PostgreSQL (DATABASE_URL)');
  });
});
