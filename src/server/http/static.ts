// The built PWA from ./dist: the shell and the worker must revalidate, hashed assets are immutable. A text
// file's `.br` / `.gz` twin written by the build (precompress.ts) goes to a browser that accepts it.
import { existsSync } from 'node:fs';
import type { MiddlewareHandler } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';

const NO_CACHE = new Set(['/', '/index.html', '/sw.js', '/manifest.webmanifest', '/registerSW.js']);

export function cacheControlFor(path: string): string {
  if (NO_CACHE.has(path)) return 'no-cache';
  if (path.startsWith('/assets/')) return 'public, max-age=31536000, immutable';
  return 'public, max-age=3600';
}

export function staticFiles(root: string): MiddlewareHandler | null {
  if (!existsSync(root)) return null;
  const serve = serveStatic({ root, index: 'index.html', precompressed: true });
  return async (c, next) => {
    // Build metadata such as /.vite/manifest.json (source paths) is not for the public.
    if (c.req.path.split('/').some((part) => part.startsWith('.'))) return next();
    const res = await serve(c, next);
    // serveStatic answers with a Response when it found the file, else it falls through to next().
    if (res instanceof Response) res.headers.set('Cache-Control', cacheControlFor(c.req.path));
    return res;
  };
}
