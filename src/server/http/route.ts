// One definition per route: defineRoute registers the Hono handler, validates its body/query with the
// route's valibot schemas (the Spanish 400 of parseWith) and records the route for the OpenAPI document.
// Handlers never read the raw body: the schema in the definition is the one that validates it.
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type * as v from 'valibot';
import type { AppEnv } from '../context';
import { parseBracketedQuery } from './bracketed-query';
import { parseWith } from './errors';

type Schema = v.GenericSchema;
type Out<S> = S extends Schema ? v.InferOutput<S> : undefined;

/** What the OpenAPI document says of a route (openapi/document.ts builds it from these). */
export interface Endpoint {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  summary: string;
  tag: string;
  auth: boolean;
  body?: v.GenericSchema;
  response?: v.GenericSchema;
  /** Documented failures besides 400/401/500. */
  errors?: number[];
  /** The success status when it is not 200. */
  status?: number;
  contentType?: string;
  /** Query and path parameters: name → description (a leading '*' = required). */
  params?: Record<string, string>;
  /** multipart/form-data file fields instead of a JSON body. */
  files?: string[];
}

/**
 * Checks a route makes before its body is validated, when their answer must win over a malformed body
 * (ownership 404, plan 403, rate limit 429, a merchant's key 401…). Runs after the middlewares; what it
 * returns (the company, the account, the merchant it found) reaches the handler as `input.guard`.
 */
export type Guard<G> = (c: Context<AppEnv>) => G | Promise<G>;

export interface RouteSpec<B extends Schema | undefined, Q extends Schema | undefined, G = undefined> extends Omit<Endpoint, 'body'> {
  /** Validated (400 on the first issue) before the handler runs, after the middlewares and the guard; documented. */
  body?: B;
  /** The status of a body that fails its schema when the route's contract is not 400 (e.g. the chat's 422). */
  bodyStatus?: ContentfulStatusCode;
  /** Checks that answer before the body is validated, in order (see Guard). */
  guard?: Guard<G>;
  /** The bracketed query (`usuario[rfc_owner]=…`), validated like the body. */
  query?: Q;
  /** What the document shows as the body when it accepts more than `body` (another area validates the rest). Needs `body`. */
  documentedBody?: Schema;
  /** A path parameter's regex when `{name}` is not a whole segment's anything (e.g. `{grant_id}.json`). */
  patterns?: Record<string, string>;
  /** The name the handler reads a path parameter by, when it is not the document's (`{id}.json` read as `file`). */
  names?: Record<string, string>;
}

export interface RouteInput<B, Q, G = undefined> {
  body: Out<B>;
  query: Out<Q>;
  /** What the route's guard returned. */
  guard: G;
}

export type RouteHandler<B, Q, G = undefined> = (c: Context<AppEnv>, input: RouteInput<B, Q, G>) => Response | Promise<Response>;

/** A path parameter of the route (`{name}` in its path): always there once Hono matched the route. */
export const pathParam = (c: Context<AppEnv>, name: string): string => c.req.param(name) ?? '';

// Any Hono app, whatever its env: the list belongs to the app the routes were registered on.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyHono = Hono<any, any, any>;
const documented = new WeakMap<AnyHono, Endpoint[]>();

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `/a/{id}` → `/a/:id`; a segment `{name}.json` → `:name{[^/]+\.json}` (the param keeps its suffix). */
export function honoPath(path: string, patterns: Record<string, string> = {}, names: Record<string, string> = {}): string {
  return path
    .split('/')
    .map((segment) => {
      const m = /^\{(\w+)\}(.*)$/.exec(segment);
      if (!m) return segment;
      const [, name, suffix] = m as unknown as [string, string, string];
      const pattern = patterns[name];
      const read = names[name] ?? name;
      if (!suffix && !pattern) return `:${read}`;
      return `:${read}{${pattern ?? '[^/]+'}${escapeRegex(suffix)}}`;
    })
    .join('/');
}

/**
 * Registers `handlers` (middlewares, then the handler given the parsed input) and records the route.
 * In order: the middlewares, the guard, the body, the query, the handler.
 */
export function defineRoute<B extends Schema | undefined = undefined, Q extends Schema | undefined = undefined, G = undefined>(
  app: Hono<AppEnv>,
  spec: RouteSpec<B, Q, G>,
  ...handlers: [...MiddlewareHandler<AppEnv>[], RouteHandler<B, Q, G>]
): void {
  const middlewares = handlers.slice(0, -1) as MiddlewareHandler<AppEnv>[];
  const handler = handlers[handlers.length - 1] as RouteHandler<B, Q, G>;
  const { body, bodyStatus, guard, query, documentedBody, patterns, names, ...doc } = spec;
  // A documented body nobody validates would be a handler parsing its own: refuse it when the app is built.
  if (documentedBody && !body) throw new Error(`${spec.method.toUpperCase()} ${spec.path}: documentedBody needs a body schema`);
  const final = async (c: Context<AppEnv>) => {
    const guarded = guard ? await guard(c) : undefined;
    const input = {
      body: body ? parseWith(body, c.get('body'), bodyStatus) : undefined,
      query: query ? parseWith(query, parseBracketedQuery(new URL(c.req.url).searchParams)) : undefined,
      guard: guarded,
    } as RouteInput<B, Q, G>;
    return handler(c, input);
  };
  // Hono's typed overloads do not take a spread of handlers; the runtime call is the plain one.
  const on = app.on.bind(app) as unknown as (method: string, path: string, ...h: MiddlewareHandler<AppEnv>[]) => void;
  on(spec.method.toUpperCase(), honoPath(spec.path, patterns, names), ...middlewares, final as MiddlewareHandler<AppEnv>);
  const list = documented.get(app) ?? [];
  const shown = documentedBody ?? body;
  list.push({ ...doc, ...(shown ? { body: shown } : {}) });
  documented.set(app, list);
}

/** The routes defined on `app` with defineRoute, in order (for the OpenAPI document). */
export function definedRoutes(app: AnyHono): readonly Endpoint[] {
  return documented.get(app) ?? [];
}

/** Records routes mounted from sub-apps (the composition root gathers every area's into its own app). */
export function adoptRoutes(app: AnyHono, from: AnyHono): void {
  const list = documented.get(app) ?? [];
  list.push(...definedRoutes(from));
  documented.set(app, list);
}
