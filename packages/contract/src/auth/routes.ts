import { Type } from 'typebox';
import { ErrorBody } from '../errors.ts';
import { defineRoute } from '../route.ts';
import { AuthSession, LoginBody, LoginChallengeBody, MeResponse, RegisterBody } from './schemas.ts';

export const authRoutes = {
  register: defineRoute({
    method: 'POST',
    path: '/auth/register',
    access: 'public',
    body: RegisterBody,
    response: { 201: AuthSession, 400: ErrorBody, 409: ErrorBody, 429: ErrorBody },
  }),
  login: defineRoute({
    method: 'POST',
    path: '/auth/login',
    access: 'public',
    body: LoginBody,
    response: { 200: AuthSession, 400: ErrorBody, 401: ErrorBody, 403: LoginChallengeBody, 429: ErrorBody },
  }),
  logout: defineRoute({
    method: 'POST',
    path: '/auth/logout',
    access: 'user',
    response: { 204: Type.Null(), 401: ErrorBody },
  }),
  me: defineRoute({
    method: 'GET',
    path: '/auth/me',
    access: 'user',
    response: { 200: MeResponse, 401: ErrorBody },
  }),
};
