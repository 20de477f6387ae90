import type { RouteBody, RouteParams, RouteQuery, RouteResult, RouteSpec } from '@kadr/contract/route';
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
) => Promise<RouteResult<R>> | RouteResult<R>;

const authMode = { public: undefined, optional: 'optional', user: 'required' } as const;

/**
 * Registers a handler for a route object from the contract: method, path, auth, validation,
 * serialization and OpenAPI all come from the object; nothing is written twice.
 */
export function registerRoute<R extends RouteSpec>(
  app: App,
  route: R,
  handler: RouteHandler<R>,
  options: { tag: string },
) {
  const multipart = route.multipart !== undefined;
  app.route({
    method: route.method,
    url: route.path,
    config: { auth: authMode[route.access] },
    schema: {
      tags: [options.tag],
      ...(route.summary ? { summary: route.summary } : {}),
      ...(route.who ? { description: `Who may call: ${route.who}` } : {}),
      ...(route.access === 'public' ? {} : { security: [{ bearer: [] }] }),
      ...(route.params ? { params: route.params } : {}),
      ...(route.query ? { querystring: route.query } : {}),
      ...(route.body ? { body: route.body } : {}),
      ...(multipart ? { consumes: ['multipart/form-data'] } : {}),
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
      const result = await handler(typed, reply);
      if (result === undefined && !reply.sent) return reply.code(204).send();
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
