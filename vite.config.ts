// Build of the PWA (React + service worker from sw/) and the unit-test runner.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import type { Plugin } from 'vite';
import { resolve } from 'node:path';
import { precompressDir } from './src/server/http/precompress';

const SIGNED_OUT_SCREENS = fileURLToPath(new URL('./src/app/signed-out-screens.ts', import.meta.url));

/**
 * The output files of the screens src/app/signed-out-screens.ts imports, found as the bundle is written
 * and before Vite resolves each dynamic import's preload list (its hook runs after this one).
 */
function signedOutScreens(): { plugin: Plugin; has: (file: string) => boolean } {
  const files = new Set<string>();
  const plugin: Plugin = {
    name: 'cc:signed-out-screens',
    apply: 'build',
    generateBundle: {
      order: 'pre',
      handler(_options, bundle) {
        const screens = new Set(this.getModuleInfo(SIGNED_OUT_SCREENS)?.dynamicallyImportedIds ?? []);
        if (screens.size === 0) this.error(`${SIGNED_OUT_SCREENS} no importa ninguna pantalla: ¿cambió de lugar?`);
        for (const out of Object.values(bundle)) {
          if (out.type === 'chunk' && out.facadeModuleId && screens.has(out.facadeModuleId)) files.add(out.fileName);
        }
      },
    },
  };
  return { plugin, has: (file) => files.has(file) };
}

const signedOut = signedOutScreens();

/** Once everything is written (the service worker included): `.br` and `.gz` beside each text file. */
function precompressed(): Plugin {
  let outDir = '';
  return {
    name: 'cc:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: { order: 'post', sequential: true, handler: () => void precompressDir(outDir) },
  };
}

export default defineConfig({
  root: '.',
  publicDir: 'public',
  // CC_BUILD_LABEL tells two builds of the same source apart (the update test deploys a "v2").
  define: { __BUILD_LABEL__: JSON.stringify(process.env.CC_BUILD_LABEL ?? '') },
  // @zxing/browser's QR reader takes a few classes from @zxing/library's index, which would bring every
  // barcode format (~114 kB gzip): the scanner's chunk gets them from their own modules instead.
  resolve: {
    alias: [{ find: /^@zxing\/library$/, replacement: fileURLToPath(new URL('./src/app/scan/zxing-library-qr.ts', import.meta.url)) }],
  },
  build: {
    outDir: 'dist',
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    // The size check and the bench read the chunk graph from dist/.vite/manifest.json.
    manifest: true,
    // A signed-in screen's chunks are not announced with <link rel=modulepreload> elements before its
    // import: the helper that adds them cost a signed-in start ~30 ms of main thread on this machine (40
    // links for the dashboard), four times that on a phone, and every screen after the first comes from
    // the service worker's cache, where the module graph's own requests are as fast. The first script's
    // imports in index.html keep theirs, and so do the screens of src/app/signed-out-screens.ts: a first
    // visit reaches them over the network, where each level of imports found late is a round trip.
    modulePreload: {
      resolveDependencies: (file, deps, { hostType }) => (hostType === 'html' || signedOut.has(file) ? deps : []),
    },
    // Everything the first script imports statically goes into that one script, rather than into
    // several small chunks shared with lazy screens: on a cold visit over HTTP/1.1 each was one more
    // request behind the browser's six connections, before the first screen could render.
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'start', tags: ['$initial'] }] } } },
  },
  // In `vite` dev mode the API runs separately (`npm run serve`); these are its non-/api paths too.
  server: {
    proxy: Object.fromEntries(
      ['/api', '/user_clients', '/new_client', '/update_client', '/meta_tags.json', '/income_meta_tags.json', '/company', '/form', '/dev'].map(
        (p) => [p, 'http://localhost:8080'],
      ),
    ),
  },
  plugins: [
    react(),
    signedOut.plugin,
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'apple-touch-icon-180x180.png', 'robots.txt'],
      manifest: {
        id: '/',
        name: 'Cuentas Claras',
        short_name: 'Cuentas Claras',
        description: 'Pide tus facturas CFDI, registra gastos e ingresos y lleva tus cuentas claras, aun sin conexión.',
        lang: 'es-MX',
        dir: 'ltr',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: '#0f766e',
        background_color: '#ffffff',
        categories: ['finance', 'business', 'productivity'],
        icons: [
          { src: 'pwa-192x192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: 'pwa-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: 'maskable-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,woff2}'],
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
      },
      devOptions: { enabled: process.env.SW_DEV === 'true', type: 'module', navigateFallback: 'index.html' },
    }),
    precompressed(),
  ],
  test: {
    include: ['tests/{domain,offline,server,app,sw,security,repository}/**/*.test.{ts,tsx}'],
    environment: 'node',
    setupFiles: ['tests/setup/indexeddb.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    // Loaded through Vite like our own code, so a test can load it again after changing what the
    // browser offers (ky decides at load whether AbortSignal.any is there).
    server: { deps: { inline: ['ky'] } },
  },
});
