// The OpenAPI document against the routes the app registers: every route documented, every documented route served.
import { toJsonSchema } from '@valibot/to-json-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definedRoutes, honoPath } from '../../../src/server/http/route';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

/** `:name{[^/]+\.json}` → `{name}.json`, `:name` → `{name}` (the document's spelling of a Hono path). */
function documentedSpelling(path: string): string {
  let out = '';
  for (let i = 0; i < path.length; i++) {
    const m = /^:(\w+)/.exec(path.slice(i));
    if (!m) {
      out += path[i];
      continue;
    }
    i += m[0].length;
    let suffix = '';
    if (path[i] === '{') {
      let depth = 0;
      let j = i;
      for (; j < path.length; j++) {
        if (path[j] === '{') depth++;
        else if (path[j] === '}' && --depth === 0) break;
      }
      const pattern = path.slice(i + 1, j);
      suffix = /\\\.(\w+)$/.exec(pattern)?.[0].replace('\\', '') ?? '';
      i = j + 1;
    }
    out += `{${m[1]}}${suffix}`;
    i--;
  }
  return out;
}

/** Parameter names aside: a handler may call its parameter what it likes. */
const anyNames = (path: string) => path.replace(/\{\w+\}/g, '{}');

describe.each(DRIVERS)('the OpenAPI document on %s', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  });
  afterAll(async () => h?.close());

  it('documents exactly the routes the app registers (static files and middlewares aside)', async () => {
    const doc = (await h.call('GET', '/api/openapi.json')).json;
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${anyNames(p)}`),
    );
    // Middlewares (app.use, the static files and the SPA fallback among them) are registered as ALL.
    const served = h.app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${anyNames(documentedSpelling(r.path))}`);
    expect([...new Set(served)].sort()).toEqual([...new Set(documented)].sort());
  });

  it('spells every documented path the way it is registered', () => {
    expect(documentedSpelling(honoPath('/api/v3/users/{id}/oauth_grants/{grant_id}.json', { grant_id: '[0-9]{1,9}' }))).toBe(
      '/api/v3/users/{id}/oauth_grants/{grant_id}.json',
    );
    expect(documentedSpelling('/tickets/:id/attach_image')).toBe('/tickets/{id}/attach_image');
  });

  it('has schemas that convert to JSON Schema', () => {
    for (const e of definedRoutes(h.app)) {
      if (e.body) expect(toJsonSchema(e.body, { errorMode: 'ignore' }), `${e.method} ${e.path}`).toBeTypeOf('object');
      if (e.response) expect(toJsonSchema(e.response, { errorMode: 'ignore' }), `${e.method} ${e.path}`).toBeTypeOf('object');
    }
  });
});
