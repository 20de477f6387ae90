import {
  type RouteBody,
  type RouteParams,
  type RouteQuery,
  type RouteResult,
  type RouteSpec,
  successStatus,
} from '@kadr/contract/route';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app-types.ts';

/** The request a handler sees: typed from the route object; `userId` is a number on `user` routes. */
export interface RouteRequest<R extends RouteSpec> {
  params: RouteParams<R>;
  query: RouteQuery<R>;
  body: RouteBody<R>;
  userId: R['access'] extends 'user' ? number : number | null;
  token: string | null;
  /** The underlying Fastify request (multipart, headers, ip). */
  raw: FastifyRequest;
}

export type RouteHandler<R extends RouteSpec> = (
  req: RouteRequest<R>,
  reply: FastifyReply,
) => Promise<RouteResult<R> | FastifyReply> | RouteResult<R> | FastifyReply;

const authMode = { public: undefined, optional: 'optional', user: 'required' } as const;

/** Content types already given a raw-text parser, per Fastify instance (a second add would throw). */
const rawParsers = new WeakMap<App, Set<string>>();

function keepRawText(app: App, contentType: string) {
  const seen = rawParsers.get(app) ?? new Set<string>();
  rawParsers.set(app, seen);
  if (seen.has(contentType)) return;
  seen.add(contentType);
  app.addContentTypeParser(contentType, { parseAs: 'string' }, (_req, body, done) => done(null, body));
}

/**
 * Registers a handler for a route object from the contract: method, path, auth, validation,
 * serialization and OpenAPI all come from the object; nothing is written twice. The answer's status is
 * the route's success status (201, 202, …) unless the handler sets another; a handler that sent the
 * reply itself (pre-rendered JSON) returns the reply.
 */
export function registerRoute<R extends RouteSpec>(
  app: App,
  route: R,
  handler: RouteHandler<R>,
  options: { tag: string },
) {
  const multipart = route.multipart !== undefined;
  const success = successStatus(route);
  if (route.raw) keepRawText(app, route.raw.contentType);
  app.route({
    method: route.method,
    url: route.path,
    config: { auth: authMode[route.access] },
    schema: {
      tags: [options.tag],
      ...(route.summary ? { summary: route.summary } : {}),
      ...(route.who ? { description: `Who may call: ${route.who}` } : {}),
      // `optional`: a token is read when sent; the empty alternative documents that none is needed.
      ...(route.access === 'public'
        ? {}
        : { security: route.access === 'optional' ? [{}, { bearer: [] }] : [{ bearer: [] }] }),
      ...(route.params ? { params: route.params } : {}),
      ...(route.query ? { querystring: route.query } : {}),
      ...(route.body ? { body: route.body } : {}),
      // Documented per content type; plugins/validation.ts leaves the multipart stream to the handler.
      ...(route.multipart
        ? { body: { content: { 'multipart/form-data': { schema: route.multipart } } } }
        : {}),
      ...(route.raw
        ? { body: { content: { [route.raw.contentType]: { schema: { type: 'string' } } } } }
        : {}),
      response: route.response,
    },
    handler: async (req, reply) => {
      const typed: RouteRequest<R> = {
        params: req.params as RouteParams<R>,
        query: req.query as RouteQuery<R>,
        body: (multipart ? undefined : req.body) as RouteBody<R>,
        userId: req.userId as RouteRequest<R>['userId'],
        token: req.token,
        raw: req,
      };
      if (success !== 200) reply.code(success);
      const result = await handler(typed, reply);
      if (result === reply || reply.sent) return reply;
      if (result === undefined) return reply.code(204).send();
      return result;
    },
  });
}

/** Registers every handler of a capability's route group; the compiler insists on one per route. */
export function registerRoutes<G extends Record<string, RouteSpec>>(
  app: App,
  group: G,
  handlers: { [K in keyof G]: RouteHandler<G[K]> },
  options: { tag: string },
) {
  for (const key of Object.keys(group) as (keyof G & string)[]) {
    registerRoute(app, group[key], handlers[key], options);
  }
}
