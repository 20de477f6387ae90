import { ErrorBody } from '../errors.ts';
import { defineRoute } from '../route.ts';
import {
  BlockedUsersResponse,
  BlockStateResponse,
  BlockUsernameParams,
  ChangePasswordBody,
  ChangePasswordResponse,
  DeleteAccountBody,
  MuteBody,
  MuteResponse,
  MutesResponse,
  PushKeyResponse,
  PushSubscriptionBody,
  PushUnsubscribeBody,
  SessionIdParams,
  SessionsResponse,
  Settings,
  SettingsOkResponse,
  SettingsPatch,
} from './schemas.ts';

const e = { 400: ErrorBody, 401: ErrorBody } as const;

/** Settings (spec §2.3): stored on the server and enforced there (privacy, blocks, mutes, push). */
export const settingsRoutes = {
  get: defineRoute({
    method: 'GET',
    path: '/settings',
    access: 'user',
    response: { 200: Settings, ...e },
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/settings',
    access: 'user',
    body: SettingsPatch,
    response: { 200: Settings, ...e },
  }),
  changePassword: defineRoute({
    method: 'POST',
    path: '/settings/password',
    access: 'user',
    summary: 'Needs the current password; ends every other session of the account (their tokens answer 401).',
    body: ChangePasswordBody,
    response: { 200: ChangePasswordResponse, ...e, 403: ErrorBody, 429: ErrorBody },
  }),
  sessions: defineRoute({
    method: 'GET',
    path: '/settings/sessions',
    access: 'user',
    response: { 200: SessionsResponse, ...e },
  }),
  endSession: defineRoute({
    method: 'DELETE',
    path: '/settings/sessions/:id',
    access: 'user',
    params: SessionIdParams,
    response: { 200: SettingsOkResponse, ...e, 404: ErrorBody },
  }),
  deleteAccount: defineRoute({
    method: 'POST',
    path: '/settings/account/delete',
    access: 'user',
    summary: 'Deletes the account and its content after the password (policy: docs/account-deletion.md).',
    body: DeleteAccountBody,
    response: { 200: SettingsOkResponse, ...e, 403: ErrorBody, 429: ErrorBody },
  }),
  blocked: defineRoute({
    method: 'GET',
    path: '/settings/blocked',
    access: 'user',
    response: { 200: BlockedUsersResponse, ...e },
  }),
  block: defineRoute({
    method: 'POST',
    path: '/settings/blocked/:username',
    access: 'user',
    params: BlockUsernameParams,
    response: { 200: BlockStateResponse, ...e, 404: ErrorBody },
  }),
  unblock: defineRoute({
    method: 'DELETE',
    path: '/settings/blocked/:username',
    access: 'user',
    params: BlockUsernameParams,
    response: { 200: BlockStateResponse, ...e, 404: ErrorBody },
  }),
  mutes: defineRoute({
    method: 'GET',
    path: '/settings/mutes',
    access: 'user',
    response: { 200: MutesResponse, ...e },
  }),
  mute: defineRoute({
    method: 'PUT',
    path: '/settings/mutes',
    access: 'user',
    summary:
      'Mutes a chat for 1 h, 8 h or until unmuted (`off` unmutes): no message sounds and no message push.',
    body: MuteBody,
    response: { 200: MuteResponse, ...e, 403: ErrorBody, 404: ErrorBody },
  }),
  pushKey: defineRoute({
    method: 'GET',
    path: '/settings/push/key',
    access: 'user',
    response: { 200: PushKeyResponse, 401: ErrorBody },
  }),
  pushSubscribe: defineRoute({
    method: 'POST',
    path: '/settings/push/subscriptions',
    access: 'user',
    body: PushSubscriptionBody,
    response: { 200: SettingsOkResponse, ...e },
  }),
  pushUnsubscribe: defineRoute({
    method: 'DELETE',
    path: '/settings/push/subscriptions',
    access: 'user',
    body: PushUnsubscribeBody,
    response: { 200: SettingsOkResponse, ...e },
  }),
};
