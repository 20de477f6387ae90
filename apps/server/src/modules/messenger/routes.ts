import {
  ConversationQuery,
  ConversationResponse,
  DeleteMessageQuery,
  DeleteMessageResponse,
  DeliveredBody,
  DeliveredResponse,
  EditMessageBody,
  ErrorBody,
  ForwardBody,
  ForwardResponse,
  Limits,
  MarkReadBody,
  MarkReadResponse,
  MessageIdParams,
  MessageResponse,
  paths,
  SendMessageBody,
} from '@kadr/contract';
import type { App } from '../../app-types.ts';
import type { MessagesService } from './service.ts';

const secured = { config: { auth: 'required' as const } };
const security = [{ bearer: [] }];
const tags = ['messenger'];

/** Conversation history, sending, editing, deleting, forwarding and receipts. */
export function messageRoutes(messages: MessagesService) {
  return async (app: App) => {
    app.get(
      paths.messages.conversation,
      {
        ...secured,
        schema: {
          tags,
          security,
          querystring: ConversationQuery,
          response: { 200: ConversationResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
        },
      },
      async (req) =>
        messages.conversation(
          req.userId!,
          req.query.other_user_id,
          req.query.limit ?? Limits.messagesInitial,
          req.query.offset ?? 0,
        ),
    );

    app.post(
      paths.messages.send,
      {
        ...secured,
        schema: {
          tags,
          security,
          description: 'Idempotent on (sender, temp_id); other_user_id = own id sends to favorites.',
          body: SendMessageBody,
          response: { 200: MessageResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
        },
      },
      async (req) => ({ message: await messages.send(req.userId!, req.body) }),
    );

    app.patch(
      '/messages/:id',
      {
        ...secured,
        schema: {
          tags,
          security,
          params: MessageIdParams,
          body: EditMessageBody,
          response: { 200: MessageResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
        },
      },
      async (req) => ({ message: await messages.edit(req.userId!, req.params.id, req.body.content) }),
    );

    app.delete(
      '/messages/:id',
      {
        ...secured,
        schema: {
          tags,
          security,
          params: MessageIdParams,
          querystring: DeleteMessageQuery,
          response: { 200: DeleteMessageResponse, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
        },
      },
      async (req) => messages.remove(req.userId!, req.params.id, req.query.for ?? 'me'),
    );

    app.post(
      paths.messages.forward,
      {
        ...secured,
        schema: {
          tags,
          security,
          body: ForwardBody,
          response: { 200: ForwardResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
        },
      },
      async (req) => ({
        messages: await messages.forward(req.userId!, req.body.message_ids, req.body.targets),
      }),
    );

    app.post(
      paths.messages.read,
      {
        ...secured,
        schema: {
          tags,
          security,
          body: MarkReadBody,
          response: { 200: MarkReadResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
        },
      },
      async (req) => messages.markRead(req.userId!, req.body.other_user_id),
    );

    app.post(
      paths.messages.delivered,
      {
        ...secured,
        schema: {
          tags,
          security,
          body: DeliveredBody,
          response: { 200: DeliveredResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
        },
      },
      async (req) => {
        await messages.delivered(req.userId!, req.body.message_ids);
        return { ok: true as const };
      },
    );
  };
}
