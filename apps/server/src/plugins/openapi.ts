import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { API_PREFIX } from '@kadr/contract';
import type { App } from '../app-types.ts';

/** OpenAPI generated from the contract's schemas; UI at /api/docs, JSON at /api/docs/json. */
export async function registerOpenApi(app: App) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Kadr API',
        version: '1.0.0',
        description: 'Errors are `{ error, code }`; see ErrorBody.',
      },
      servers: [{ url: API_PREFIX }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: ({ schema, url }) => ({
      schema: schema as never,
      url: url.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) : url,
    }),
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
}
