import type { Static, TSchema } from 'typebox';
import { API_PREFIX } from './paths.ts';

/**
 * Routes are defined once, here in the contract: one object per HTTP route with its method, path,
 * who may call it and the schemas of everything that crosses the wire. The server registers its
 * handlers from these objects (validation, serialization and OpenAPI from the same schemas); the web
 * client calls them through the schema-free endpoint view generated next to each capability's
 * routes (`<capability>/endpoints.gen.ts`, `npm run gen:endpoints`), so no validator reaches the browser.
 */

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Who may call the route, checked by the server before the handler runs:
 * `public` — anyone, no token read; `optional` — anyone, the viewer known when a valid token is sent;
 * `user` — signed-in users only (401 otherwise). Finer rules (author, member, host, admin) are the
 * service's, named in `who`.
 */
export type Access = 'public' | 'optional' | 'user';

export interface RouteSpec {
  method: HttpMethod;
  /** Fastify-style path under /api/v1 with `:name` parameters. */
  path: string;
  access: Access;
  /** The finer rule the service enforces (for OpenAPI and readers), e.g. 'story owner'. */
  who?: string;
  summary?: string;
  params?: TSchema;
  query?: TSchema;
  /** A JSON body. */
  body?: TSchema;
  /** A multipart/form-data body read by the handler as a stream; the schema documents its fields. */
  multipart?: TSchema;
  /** A body kept as its exact text (e.g. a signed webhook) under this content type; read from `req.raw.body`. */
  raw?: { contentType: string };
  /** Every status the route answers with, errors included (`ErrorBody`). */
  response: Readonly<Record<number, TSchema>>;
}

export function defineRoute<const R extends RouteSpec>(route: R): R {
  return route;
}

type StaticOf<S> = S extends TSchema ? Static<S> : undefined;

export type RouteParams<R extends RouteSpec> = StaticOf<R['params']>;
export type RouteQuery<R extends RouteSpec> = StaticOf<R['query']>;
export type RouteBody<R extends RouteSpec> = StaticOf<R['body']>;

/** The successful answer: 200, else 201, else 202, else nothing (204). */
export type RouteResult<R extends RouteSpec> = R['response'] extends { 200: infer S extends TSchema }
  ? Static<S>
  : R['response'] extends { 201: infer S extends TSchema }
    ? Static<S>
    : R['response'] extends { 202: infer S extends TSchema }
      ? Static<S>
      : undefined;

/** The status a route answers with on success (the lowest 2xx in its response map). */
export function successStatus(route: RouteSpec): number {
  const codes = Object.keys(route.response)
    .map(Number)
    .filter((code) => code >= 200 && code < 300)
    .sort((a, b) => a - b);
  return codes[0] ?? 200;
}

declare const routeSpec: unique symbol;

/**
 * The browser's view of a route: method and path only, carrying the route's types as a phantom.
 * Built by `endpoint<typeof someRoutes.x>(method, path)`, which fails to compile when either differs
 * from the route object.
 */
export interface Endpoint<R extends RouteSpec = RouteSpec> {
  readonly method: R['method'];
  readonly path: R['path'];
  readonly [routeSpec]?: R;
}

export type EndpointRoute<E> = E extends Endpoint<infer R> ? R : never;

export function endpoint<R extends RouteSpec>(method: R['method'], path: R['path']): Endpoint<R> {
  return { method, path };
}

/** Fills `:name` parameters of a route path (values URI-encoded). */
export function fillPath(
  path: string,
  params: Readonly<Record<string, string | number>> | undefined,
): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** Query values of a URL; `undefined` ones are left out. */
export type UrlQuery = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * The URL of a route (a route object or its endpoint view): the API prefix, the path with its `:name`
 * parameters filled, and the query. The one place a request URL is built — the web client, the server's
 * tests and the browser flows all call it, so no API path is written outside the contract.
 */
export function apiUrl(
  route: { readonly path: string },
  params?: Readonly<Record<string, string | number>>,
  query?: UrlQuery,
): string {
  const url = `${API_PREFIX}${fillPath(route.path, params)}`;
  if (!query) return url;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text ? `${url}?${text}` : url;
}
