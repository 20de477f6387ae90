import {
  ChatDeletedResponse,
  ChatPinBody,
  ChatPinResponse,
  ChatSearchQuery,
  ChatsQuery,
  ChatsResponse,
  DeleteChatBody,
  ErrorBody,
  MessageSearchQuery,
  MessageSearchResponse,
  paths,
} from '@kadr/contract';
import type { App } from '../../app-types.ts';
import type { ChatsService } from './chats-service.ts';

const secured = { config: { auth: 'required' as const } };
const security = [{ bearer: [] }];
const tags = ['messenger'];

/** The chat list, chat and message search, pins and chat deletion (spec §7.5). */
export function chatRoutes(chats: ChatsService) {
  return async (app: App) => {
    app.get(
      paths.messages.chats,
      {
        ...secured,
        schema: { tags, security, querystring: ChatsQuery, response: { 200: ChatsResponse, 401: ErrorBody } },
      },
      async (req) =>
        req.query.limit === undefined
          ? { chats: await chats.list(req.userId!) }
          : chats.page(req.userId!, req.query.limit, req.query.offset ?? 0),
    );

    app.get(
      paths.messages.chatSearch,
      {
        ...secured,
        schema: {
          tags,
          security,
          querystring: ChatSearchQuery,
          response: { 200: ChatsResponse, 400: ErrorBody, 401: ErrorBody },
        },
      },
      async (req) => ({ chats: await chats.searchByName(req.userId!, req.query.q) }),
    );

    app.get(
      paths.messages.search,
      {
        ...secured,
        schema: {
          tags,
          security,
          querystring: MessageSearchQuery,
          response: { 200: MessageSearchResponse, 400: ErrorBody, 401: ErrorBody },
        },
      },
      async (req) =>
        chats.searchMessages(req.userId!, req.query.q, req.query.limit ?? 20, req.query.offset ?? 0),
    );

    for (const [method, pinned] of [
      ['POST', true],
      ['DELETE', false],
    ] as const) {
      app.route({
        method,
        url: paths.messages.chatPin,
        ...secured,
        schema: {
          tags,
          security,
          body: ChatPinBody,
          response: { 200: ChatPinResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
        },
        handler: async (req) => chats.pin(req.userId!, req.body, pinned),
      });
    }

    app.delete(
      paths.messages.chat,
      {
        ...secured,
        schema: {
          tags,
          security,
          description: 'Removes the chat and its history for oneself. Favorites cannot be deleted.',
          body: DeleteChatBody,
          response: { 200: ChatDeletedResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
        },
      },
      async (req) => {
        await chats.remove(req.userId!, req.body);
        return { ok: true as const };
      },
    );
  };
}
