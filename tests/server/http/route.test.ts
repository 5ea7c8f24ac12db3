// defineRoute: one definition validates the body, in the order the route declares (middlewares, guard,
// body, handler), and no handler under src/server reads the raw JSON body to validate it itself.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../../src/server/context';
import { jsonBody } from '../../../src/server/http/body';
import { ApiError, fail } from '../../../src/server/http/errors';
import { defineRoute, definedRoutes } from '../../../src/server/http/route';

const Body = v.object({ name: v.pipe(v.string('Escribe un nombre.'), v.minLength(1, 'Escribe un nombre.')) });

function appWith(define: (app: Hono<AppEnv>) => void): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(jsonBody());
  define(app);
  app.onError((err, c) => (err instanceof ApiError ? c.json({ errors: err.messages }, err.status) : c.json({ errors: ['500'] }, 500)));
  return app;
}

async function post(app: Hono<AppEnv>, body: unknown, headers: Record<string, string> = {}) {
  const r = await app.request('/x', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
}

describe('defineRoute', () => {
  it('runs the guard before the body: its answer wins over a malformed body, and the handler gets both', async () => {
    const seen: string[] = [];
    const app = appWith((a) =>
      defineRoute(a, {
        method: 'post', path: '/x', summary: 's', tag: 't', auth: false, body: Body,
        guard: (c) => {
          seen.push('guard');
          if (c.req.header('x-key') !== 'ok') throw fail(401, 'Llave incorrecta.');
          return { merchant: 7 };
        },
      }, async (_c, next) => {
        seen.push('middleware');
        await next();
      }, (c, { body, guard }) => c.json({ name: body.name, merchant: guard.merchant })),
    );
    expect(await post(app, { name: 5 })).toEqual({ status: 401, json: { errors: ['Llave incorrecta.'] } });
    expect(seen).toEqual(['middleware', 'guard']);
    expect(await post(app, { name: 5 }, { 'x-key': 'ok' })).toEqual({ status: 400, json: { errors: ['Escribe un nombre.'] } });
    expect(await post(app, { name: 'Lupita' }, { 'x-key': 'ok' })).toEqual({ status: 200, json: { name: 'Lupita', merchant: 7 } });
  });

  it("answers a body that fails its schema with the route's own status", async () => {
    const app = appWith((a) =>
      defineRoute(a, { method: 'post', path: '/x', summary: 's', tag: 't', auth: false, body: Body, bodyStatus: 422 }, (c, { body }) => c.json(body)),
    );
    expect(await post(app, { name: '' })).toEqual({ status: 422, json: { errors: ['Escribe un nombre.'] } });
  });

  it('refuses a documented body that the definition does not validate', () => {
    const app = new Hono<AppEnv>();
    expect(() =>
      defineRoute(app, { method: 'post', path: '/x', summary: 's', tag: 't', auth: false, documentedBody: Body }, (c) => c.json({})),
    ).toThrow(/documentedBody needs a body schema/);
    expect(definedRoutes(app)).toEqual([]);
  });
});

const SERVER = join(dirname(fileURLToPath(import.meta.url)), '../../../src/server');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Reading the JSON body that jsonBody parsed, or parsing one again: only http/ (defineRoute, auth's token) may. */
const READS_BODY = /\.get\(\s*['"]body['"]\s*\)|\.req\.json\(/;

describe('one definition per route', () => {
  it('no file outside http/ reads the raw JSON body: the body schema in the definition is the one that validates', () => {
    const readers = sourceFiles(SERVER)
      .map((file) => relative(SERVER, file).split('\\').join('/'))
      .filter((file) => !file.startsWith('http/'))
      .filter((file) => readFileSync(join(SERVER, file), 'utf8').split('\n').some((line) => READS_BODY.test(line)));
    expect(readers).toEqual([]);
  });
});
