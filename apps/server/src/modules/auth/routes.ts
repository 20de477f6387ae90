import { AuthSession, ErrorBody, LoginBody, MeResponse, paths, RegisterBody } from '@kadr/contract';
import { Type } from 'typebox';
import type { App } from '../../app-types.ts';

const errorResponses = { 400: ErrorBody, 401: ErrorBody, 409: ErrorBody, 429: ErrorBody };

export async function authRoutes(app: App) {
  const { auth } = app.ctx;

  app.post(
    paths.auth.register,
    { schema: { tags: ['auth'], body: RegisterBody, response: { 201: AuthSession, ...errorResponses } } },
    async (req, reply) => {
      const session = await auth.register(req.body, req.ip, req.headers['user-agent'] ?? null);
      return reply.code(201).send(session);
    },
  );

  app.post(
    paths.auth.login,
    { schema: { tags: ['auth'], body: LoginBody, response: { 200: AuthSession, ...errorResponses } } },
    async (req) =>
      auth.login(req.body.username, req.body.password, req.ip, req.headers['user-agent'] ?? null),
  );

  app.post(
    paths.auth.logout,
    {
      config: { auth: 'required' },
      schema: { tags: ['auth'], security: [{ bearer: [] }], response: { 204: Type.Null(), 401: ErrorBody } },
    },
    async (req, reply) => {
      await auth.logout(req.token!);
      return reply.code(204).send(null);
    },
  );

  app.get(
    paths.auth.me,
    {
      config: { auth: 'required' },
      schema: { tags: ['auth'], security: [{ bearer: [] }], response: { 200: MeResponse, 401: ErrorBody } },
    },
    async (req) => ({ user: await auth.me(req.userId!) }),
  );
}
