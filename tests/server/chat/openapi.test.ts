// The chat's OpenAPI entries (to be collected by src/server/endpoints.ts): one per route, valid JSON Schema.
import { toJsonSchema } from '@valibot/to-json-schema';
import { describe, expect, it } from 'vitest';
import { CHAT_ENDPOINTS } from '../../../src/server/chat/openapi';
import { chatRoutes } from '../../../src/server/chat/routes';
import type { Services } from '../../../src/server/context';

describe('CHAT_ENDPOINTS', () => {
  it('documents exactly the routes chatRoutes serves', () => {
    const app = chatRoutes({} as Services);
    const served = app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    const documented = CHAT_ENDPOINTS.map((e) => `${e.method.toUpperCase()} ${e.path}`);
    expect([...new Set(served)].sort()).toEqual(documented.sort());
  });
  it('has schemas that convert to JSON Schema', () => {
    for (const e of CHAT_ENDPOINTS) {
      if (e.body) expect(toJsonSchema(e.body, { errorMode: 'ignore' })).toHaveProperty('type', 'object');
      if (e.response) expect(toJsonSchema(e.response, { errorMode: 'ignore' })).toHaveProperty('type', 'object');
    }
  });
});
