import { ErrorBody } from '../errors.ts';
import { defineRoute } from '../route.ts';
import { DemoState } from './schemas.ts';

export const demoRoutes = {
  state: defineRoute({
    method: 'GET',
    path: '/demo',
    access: 'optional',
    who: 'a signed-in user (their offer and run), or the operator with X-Kadr-Operator-Key (the latest operator run)',
    summary: 'Whether the caller is offered demo content, and the progress of their seeding',
    response: { 200: DemoState, 401: ErrorBody },
  }),
  seed: defineRoute({
    method: 'POST',
    path: '/demo',
    access: 'optional',
    who: 'the first account of an instance without posts (or the operator, with the X-Kadr-Operator-Key header the server keeps in DATA_DIR/operator.key); never with NODE_ENV=production unless DEMO_CONTENT=true',
    summary:
      'Starts seeding demo people, posts, stories and chats (a durable job); answers at once with its progress',
    response: { 202: DemoState, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody },
  }),
};
