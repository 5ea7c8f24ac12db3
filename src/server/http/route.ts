// One definition per route: defineRoute registers the Hono handler, validates its body/query with the
// route's valibot schemas (the Spanish 400 of parseWith) and records the route for the OpenAPI document.
import type { Context, Hono, MiddlewareHandler } from 'hono';
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

export interface RouteSpec<B extends Schema | undefined, Q extends Schema | undefined> extends Omit<Endpoint, 'body'> {
  /** Validated (400 on the first issue) before the handler runs, after the middlewares; documented. */
  body?: B;
  /** The bracketed query (`usuario[rfc_owner]=…`), validated like the body. */
  query?: Q;
  /** What the document shows as the body when the handler validates more than `body` itself. */
  documentedBody?: Schema;
  /** A path parameter's regex when `{name}` is not a whole segment's anything (e.g. `{grant_id}.json`). */
  patterns?: Record<string, string>;
  /** The name the handler reads a path parameter by, when it is not the document's (`{id}.json` read as `file`). */
  names?: Record<string, string>;
}

export interface RouteInput<B, Q> {
  body: Out<B>;
  query: Out<Q>;
}

export type RouteHandler<B, Q> = (c: Context<AppEnv>, input: RouteInput<B, Q>) => Response | Promise<Response>;

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

/** Registers `handlers` (middlewares, then the handler given the parsed input) and records the route. */
export function defineRoute<B extends Schema | undefined = undefined, Q extends Schema | undefined = undefined>(
  app: Hono<AppEnv>,
  spec: RouteSpec<B, Q>,
  ...handlers: [...MiddlewareHandler<AppEnv>[], RouteHandler<B, Q>]
): void {
  const middlewares = handlers.slice(0, -1) as MiddlewareHandler<AppEnv>[];
  const handler = handlers[handlers.length - 1] as RouteHandler<B, Q>;
  const { body, query, documentedBody, patterns, names, ...doc } = spec;
  const final = (c: Context<AppEnv>) => {
    const input = {
      body: body ? parseWith(body, c.get('body')) : undefined,
      query: query ? parseWith(query, parseBracketedQuery(new URL(c.req.url).searchParams)) : undefined,
    } as RouteInput<B, Q>;
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
