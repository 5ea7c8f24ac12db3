// The built PWA starts offline and installs: the service worker precaches the whole app (lazy
// route chunks included), the web manifest is complete, and index.html obeys our CSP. The test builds
// what it checks into a temporary folder, so it needs no earlier build and never reads a stale dist/.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const DIST = mkdtempSync(join(tmpdir(), 'cc-sw-build-'));

interface PrecacheEntry {
  url: string;
  revision: string | null;
}

interface ManifestIcon {
  src: string;
  sizes: string;
  type?: string;
  purpose?: string;
}

interface WebManifest {
  name?: string;
  short_name?: string;
  lang?: string;
  start_url?: string;
  display?: string;
  theme_color?: string;
  icons?: ManifestIcon[];
}

/** The precache list workbox-build injected in place of self.__WB_MANIFEST. */
function precacheEntries(swSource: string): PrecacheEntry[] {
  const list = swSource.match(/\[(?:\{"(?:revision|url)":[^{}]*\},?)+\]/);
  if (!list) throw new Error('no injected precache manifest found in the built sw.js');
  return JSON.parse(list[0]) as PrecacheEntry[];
}

function themeColorOf(html: string): string | undefined {
  return html.match(/<meta\s+name="theme-color"\s+content="([^"]+)"/)?.[1];
}

let sw = '';
let urls = new Set<string>();
let manifest: WebManifest = {};
let html = '';

beforeAll(() => {
  // The repository's own config (vite.config.ts, with vite-plugin-pwa's injectManifest), only the output
  // folder differs. Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  execFileSync(join(ROOT, 'node_modules/.bin/vite'), ['build', '--outDir', DIST, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: ROOT,
    stdio: 'pipe',
    timeout: 5 * 60_000,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  sw = readFileSync(join(DIST, 'sw.js'), 'utf8');
  urls = new Set(precacheEntries(sw).map((e) => e.url));
  manifest = JSON.parse(readFileSync(join(DIST, 'manifest.webmanifest'), 'utf8')) as WebManifest;
  html = readFileSync(join(DIST, 'index.html'), 'utf8');
}, 5 * 60_000 + 10_000);

afterAll(() => rmSync(DIST, { recursive: true, force: true }));

describe('service worker precache', () => {
  it('lists the app shell, the web manifest and the icons', () => {
    for (const url of [
      'index.html',
      'manifest.webmanifest',
      'favicon.svg',
      'pwa-192x192.png',
      'pwa-512x512.png',
      'maskable-512x512.png',
      'apple-touch-icon-180x180.png',
    ]) {
      expect(urls, url).toContain(url);
    }
  });

  it('lists every JS and CSS asset, so lazy routes open offline', () => {
    const assets = readdirSync(join(DIST, 'assets')).filter((f) => /\.(js|css)$/.test(f));
    expect(assets.some((f) => f.endsWith('.js'))).toBe(true);
    for (const file of assets) expect(urls, file).toContain(`assets/${file}`);
  });

  it('does not precache the service worker itself', () => {
    expect([...urls].filter((u) => /(^|\/)sw\.(js|mjs)$/.test(u))).toEqual([]);
  });

  it('gives each URL a single revision (workbox refuses conflicting duplicates)', () => {
    const revisions = new Map<string, string | null>();
    for (const entry of precacheEntries(sw)) {
      if (revisions.has(entry.url)) expect(revisions.get(entry.url), entry.url).toBe(entry.revision);
      revisions.set(entry.url, entry.revision);
    }
  });
});

describe('web manifest', () => {
  it('names the app in Spanish (Mexico) and opens standalone at the root', () => {
    expect(manifest.name).toBe('Cuentas Claras');
    expect(manifest.short_name).toBe('Cuentas Claras');
    expect(manifest.lang).toBe('es-MX');
    expect(manifest.start_url).toBe('/');
    expect(manifest.display).toBe('standalone');
  });

  it('has 192 and 512 "any" icons and a separate maskable one, all present in dist', () => {
    const icons = manifest.icons ?? [];
    const any = icons.filter((i) => (i.purpose ?? 'any').split(' ').includes('any'));
    expect(any.map((i) => i.sizes).sort()).toEqual(['192x192', '512x512']);
    const maskable = icons.filter((i) => i.purpose === 'maskable');
    expect(maskable).toHaveLength(1);
    expect(any.map((i) => i.src)).not.toContain(maskable[0]!.src);
    for (const icon of icons) expect(existsSync(join(DIST, icon.src)), icon.src).toBe(true);
  });

  it('uses the same theme colour as index.html', () => {
    expect(themeColorOf(html)).toBeDefined();
    expect(manifest.theme_color).toBe(themeColorOf(html));
    expect(themeColorOf(readFileSync(join(ROOT, 'index.html'), 'utf8'))).toBe(manifest.theme_color);
  });
});

describe('index.html', () => {
  it('links the web manifest and is in Spanish (Mexico)', () => {
    expect(html).toMatch(/<link rel="manifest" href="\/manifest\.webmanifest"/);
    expect(html).toMatch(/<html lang="es-MX"/);
    expect(html).toContain('<title>Cuentas Claras</title>');
  });

  it('has no inline script or style block (CSP script-src \'self\')', () => {
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc="/);
      expect(body!.trim()).toBe('');
    }
    expect(html).not.toMatch(/<style\b/);
    expect(html).not.toMatch(/\son[a-z]+="/);
  });
});
