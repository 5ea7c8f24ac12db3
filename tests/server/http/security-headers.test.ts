import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../../src/server/http/precompress';
import { CSP } from '../../../src/server/http/security-headers';
import { createHarness, type Harness } from '../helpers/harness';

const EXPECTED = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; worker-src 'self' blob:; manifest-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(self), geolocation=(self), microphone=()',
};

function expectSecurityHeaders(headers: Headers) {
  for (const [k, v] of Object.entries(EXPECTED)) expect(headers.get(k), k).toBe(v);
}

describe('security headers and static files', () => {
  let h: Harness;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'cc-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), `<!doctype html><html lang="es-MX"><title>Cuentas Claras</title>${'<!-- relleno -->'.repeat(200)}</html>`);
    writeFileSync(join(dist, 'sw.js'), 'self.addEventListener("install", () => {});');
    writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"Cuentas Claras"}');
    writeFileSync(join(dist, 'assets', 'index-Abc123.js'), `console.log(${JSON.stringify('x'.repeat(4000))});`);
    writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
    mkdirSync(join(dist, '.vite'));
    writeFileSync(join(dist, '.vite', 'manifest.json'), '{"src/app/main.tsx":{}}');
    h = await createHarness('pglite', { staticDir: dist });
  });
  afterAll(async () => {
    await h?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('sends the exact CSP and companions on API responses, errors included', async () => {
    expect(CSP).toBe(EXPECTED['content-security-policy']);
    for (const path of ['/api/v3/plans.json', '/api/v2/no_existe', '/api/docs']) {
      const r = await h.call('GET', path);
      expectSecurityHeaders(r.headers);
      expect(r.headers.get('strict-transport-security')).toBeNull();
    }
    const bad = await h.call('POST', '/api/v2/login', { raw: '{' });
    expectSecurityHeaders(bad.headers);
  });

  it('adds HSTS only when the request came over TLS', async () => {
    const r = await h.call('GET', '/meta_tags.json', { headers: { 'x-forwarded-proto': 'https' } });
    expect(r.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const direct = await h.app.request('https://cuentas.example.mx/meta_tags.json');
    expect(direct.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('ignores X-Forwarded-Proto unless TRUST_PROXY is on', async () => {
    const h2 = await createHarness('pglite', { trustProxy: false });
    try {
      const r = await h2.call('GET', '/meta_tags.json', { headers: { 'x-forwarded-proto': 'https' } });
      expect(r.headers.get('strict-transport-security')).toBeNull();
    } finally {
      await h2.close();
    }
  });

  it('serves the shell and worker with no-cache and hashed assets as immutable, with security headers', async () => {
    const root = await h.call('GET', '/');
    expect(root.status).toBe(200);
    expect(root.text).toContain('<title>Cuentas Claras</title>');
    expect(root.headers.get('content-type')).toContain('text/html');
    expect(root.headers.get('cache-control')).toBe('no-cache');
    expectSecurityHeaders(root.headers);
    for (const path of ['/index.html', '/sw.js', '/manifest.webmanifest']) {
      const r = await h.call('GET', path);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('cache-control'), path).toBe('no-cache');
      expectSecurityHeaders(r.headers);
    }
    const asset = await h.call('GET', '/assets/index-Abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expectSecurityHeaders(asset.headers);
    expect((await h.call('GET', '/favicon.svg')).headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('compresses text responses when the browser accepts gzip', async () => {
    const res = await h.app.request('/assets/index-Abc123.js', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const plain = await h.app.request('/api/v3/plans.json', { headers: { 'accept-encoding': 'gzip' } });
    expect(plain.headers.get('content-encoding')).toBe('gzip');
    expectSecurityHeaders(plain.headers);
  });

  it('answers a missing static file with 404 and refuses path traversal', async () => {
    const r = await h.call('GET', '/assets/no-existe.js');
    expect(r.status).toBe(404);
    const t = await h.call('GET', '/../package.json');
    expect(t.status).toBe(404);
  });

  it('does not publish build metadata under dot folders', async () => {
    const r = await h.call('GET', '/.vite/manifest.json');
    expect(r.status).toBe(404);
    expect(r.text).not.toContain('src/app');
  });
});

describe('precompressed static files', () => {
  let h: Harness;
  let dist: string;
  const script = `console.log(${JSON.stringify('cuentas claras '.repeat(400))});`;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'cc-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), `<!doctype html><title>Cuentas Claras</title>${'<!-- relleno -->'.repeat(200)}`);
    writeFileSync(join(dist, 'assets', 'index-Abc123.js'), script);
    writeFileSync(join(dist, 'assets', 'tiny-Abc123.js'), 'export {};');
    writeFileSync(join(dist, 'assets', 'logo-Abc123.png'), Buffer.alloc(4096, 1));
    mkdirSync(join(dist, '.vite'));
    writeFileSync(join(dist, '.vite', 'manifest.json'), JSON.stringify({ relleno: 'x'.repeat(4096) }));
    expect(precompressDir(dist)).toBe(2); // the shell and the script: not the tiny file, the image or .vite
    h = await createHarness('pglite', { staticDir: dist });
  });
  afterAll(async () => {
    await h?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves the Brotli file to a browser that accepts it, the gzip one otherwise, and the file itself to the rest', async () => {
    const br = await h.app.request('/assets/index-Abc123.js', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toContain('Accept-Encoding');
    expect(br.headers.get('content-type')).toContain('javascript');
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brBytes.length).toBeLessThan(script.length / 10);
    expect(brotliDecompressSync(brBytes).toString()).toBe(script);

    const gz = await h.app.request('/assets/index-Abc123.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(script);

    const plain = await h.app.request('/assets/index-Abc123.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(script);

    const shell = await h.app.request('/', { headers: { 'accept-encoding': 'br' } });
    expect(shell.headers.get('content-encoding')).toBe('br');
    expect(shell.headers.get('cache-control')).toBe('no-cache');
    expectSecurityHeaders(shell.headers);
    expect(brotliDecompressSync(Buffer.from(await shell.arrayBuffer())).toString()).toContain('<title>Cuentas Claras</title>');
    expect(existsSync(join(dist, '.vite', 'manifest.json.br'))).toBe(false);
    expect(existsSync(join(dist, 'assets', 'tiny-Abc123.js.br'))).toBe(false);
  });
});
