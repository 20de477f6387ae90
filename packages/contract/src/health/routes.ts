import { defineRoute } from '../route.ts';
import { HealthResponse } from './schemas.ts';

export const healthRoutes = {
  get: defineRoute({
    method: 'GET',
    path: '/health',
    access: 'public',
    summary: 'Liveness and the state of the database, the media server and the realtime adapter',
    response: { 200: HealthResponse, 503: HealthResponse },
  }),
};
