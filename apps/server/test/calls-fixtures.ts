import type {
  AuthSession,
  Call,
  CallEvent,
  ConversationResponse,
  ServerToClientEvents,
} from '@kadr/contract';
import { apiUrl, messengerRoutes } from '@kadr/contract';
import { callsRoutes } from '@kadr/contract/calls/routes';
import type { App } from '../src/app-types.ts';
import { bearer } from './helpers.ts';
import { type ClientSocket, nextEvent } from './sockets.ts';

/** Helpers shared by the call suites: HTTP actions as a user, events as a device, the chat's entries. */

export type CallAction = 'accept' | 'reject' | 'end' | 'connected';

export function callsClient(app: App) {
  const post = (user: AuthSession, url: string, payload?: object) =>
    app.inject({ method: 'POST', url, headers: bearer(user.access_token), payload });
  return {
    start: (user: AuthSession, payload: object) => post(user, apiUrl(callsRoutes.start), payload),
    act: (user: AuthSession, id: number, action: CallAction, payload: object = {}) =>
      post(user, apiUrl(callsRoutes[action], { id }), payload),
    resume: (user: AuthSession, id: number, socketId: string) =>
      post(user, apiUrl(callsRoutes.resume, { id }), { socket_id: socketId }),
    get: (user: AuthSession, url: string) =>
      app.inject({ method: 'GET', url, headers: bearer(user.access_token) }),
    /** The chat entries calls left between the two (oldest first), read by `user`. */
    async entries(user: AuthSession, other: AuthSession): Promise<string[]> {
      const res = await app.inject({
        method: 'GET',
        url: apiUrl(messengerRoutes.conversation, undefined, {
          other_user_id: other.user.id,
          limit: 100,
          offset: 0,
        }),
        headers: bearer(user.access_token),
      });
      const body = res.json() as ConversationResponse;
      return body.messages.filter((m) => m.message_type === 'call').map((m) => m.content);
    },
  };
}

export async function startCall(
  app: App,
  caller: AuthSession,
  callee: AuthSession,
  extra: object = {},
): Promise<Call> {
  const res = await callsClient(app).start(caller, { user_id: callee.user.id, kind: 'video', ...extra });
  if (res.statusCode !== 200) throw new Error(`start failed: ${res.statusCode} ${res.body}`);
  return res.json() as Call;
}

export const callEvent = (
  s: ClientSocket,
  event: keyof ServerToClientEvents & `call-${string}`,
  callId: number,
  timeoutMs = 5000,
) => nextEvent<CallEvent>(s, event, (e) => e.call.id === callId, timeoutMs);

/** Polls until `check` passes (state written by another node or a timer), or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

/** Events of one kind a socket received, collected for "exactly once" checks. */
export function collect(s: ClientSocket, event: keyof ServerToClientEvents & `call-${string}`) {
  const seen: CallEvent[] = [];
  s.on(event, ((e: CallEvent) => seen.push(e)) as never);
  return seen;
}
