import { Type } from 'typebox';
import { ErrorBody } from '../errors.ts';
import { defineRoute } from '../route.ts';
import {
  AroundQuery,
  AroundResponse,
  AttachmentsResponse,
  ChatDeletedResponse,
  ChatPinBody,
  ChatPinResponse,
  ChatSearchQuery,
  ChatsQuery,
  ChatsResponse,
  ConversationQuery,
  ConversationResponse,
  DeleteChatBody,
  DeleteMessageQuery,
  DeleteMessageResponse,
  DeliveredBody,
  DeliveredResponse,
  EditMessageBody,
  ForwardBody,
  ForwardResponse,
  MarkReadBody,
  MarkReadResponse,
  MessageIdParams,
  MessagePinResponse,
  MessageResponse,
  MessageSearchQuery,
  MessageSearchResponse,
  SendMessageBody,
  SharedMediaQuery,
  SharedMediaResponse,
} from './schemas.ts';

export { messengerReactionRoutes } from './reactions.ts';

const AttachmentUpload = Type.Object({
  files: Type.Array(Type.String({ format: 'binary' }), {
    minItems: 1,
    description: 'the files to attach (checked by content)',
  }),
  voice: Type.Optional(
    Type.Literal('1', {
      description:
        'before the file: it is a voice recording (audio only, any format ffmpeg decodes), processed to AAC in .m4a with a waveform',
    }),
  ),
});

/** Personal chats and favorites: history, sending, editing, receipts, the chat list (spec §7.5). */
export const messengerRoutes = {
  chats: defineRoute({
    method: 'GET',
    path: '/messages/chats',
    access: 'user',
    query: ChatsQuery,
    response: { 200: ChatsResponse, 400: ErrorBody, 401: ErrorBody },
  }),
  chatSearch: defineRoute({
    method: 'GET',
    path: '/messages/chats/search',
    access: 'user',
    query: ChatSearchQuery,
    response: { 200: ChatsResponse, 400: ErrorBody, 401: ErrorBody },
  }),
  search: defineRoute({
    method: 'GET',
    path: '/messages/search',
    access: 'user',
    query: MessageSearchQuery,
    response: { 200: MessageSearchResponse, 400: ErrorBody, 401: ErrorBody },
  }),
  pin: defineRoute({
    method: 'POST',
    path: '/messages/chat-pin',
    access: 'user',
    body: ChatPinBody,
    response: { 200: ChatPinResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
  unpin: defineRoute({
    method: 'DELETE',
    path: '/messages/chat-pin',
    access: 'user',
    body: ChatPinBody,
    response: { 200: ChatPinResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
  deleteChat: defineRoute({
    method: 'DELETE',
    path: '/messages/chat',
    access: 'user',
    who: 'a member; removes the chat and its history for oneself. Favorites cannot be deleted',
    body: DeleteChatBody,
    response: { 200: ChatDeletedResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
  conversation: defineRoute({
    method: 'GET',
    path: '/messages/conversation',
    access: 'user',
    query: ConversationQuery,
    response: { 200: ConversationResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
  send: defineRoute({
    method: 'POST',
    path: '/messages',
    access: 'user',
    summary: 'Idempotent on (sender, temp_id); other_user_id = own id sends to favorites.',
    body: SendMessageBody,
    response: { 200: MessageResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
  edit: defineRoute({
    method: 'PATCH',
    path: '/messages/:id',
    access: 'user',
    who: 'the sender, within an hour',
    params: MessageIdParams,
    body: EditMessageBody,
    response: { 200: MessageResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/messages/:id',
    access: 'user',
    who: 'a member for oneself; the sender for everyone',
    params: MessageIdParams,
    query: DeleteMessageQuery,
    response: { 200: DeleteMessageResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  }),
  forward: defineRoute({
    method: 'POST',
    path: '/messages/forward',
    access: 'user',
    body: ForwardBody,
    response: {
      200: ForwardResponse,
      400: ErrorBody,
      401: ErrorBody,
      403: ErrorBody,
      404: ErrorBody,
      409: ErrorBody,
    },
  }),
  read: defineRoute({
    method: 'POST',
    path: '/messages/read',
    access: 'user',
    body: MarkReadBody,
    response: { 200: MarkReadResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
  delivered: defineRoute({
    method: 'POST',
    path: '/messages/delivered',
    access: 'user',
    body: DeliveredBody,
    response: { 200: DeliveredResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
  }),
  around: defineRoute({
    method: 'GET',
    path: '/messages/:id/around',
    access: 'user',
    who: 'a member of the message’s chat who can see the message',
    summary:
      'A window of the chat’s history around a message (opening a search hit or a pin at the message).',
    params: MessageIdParams,
    query: AroundQuery,
    response: { 200: AroundResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  }),
  pinMessage: defineRoute({
    method: 'PUT',
    path: '/messages/:id/pin',
    access: 'user',
    who: 'a member of a personal chat; a group’s or channel’s owner or admin',
    summary:
      'Pins the message in its chat for every member (one pinned message per chat; it replaces the last).',
    params: MessageIdParams,
    response: { 200: MessagePinResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  }),
  unpinMessage: defineRoute({
    method: 'DELETE',
    path: '/messages/:id/pin',
    access: 'user',
    who: 'as for pinning',
    summary: 'Unpins the message if it is the chat’s pinned one; idempotent.',
    params: MessageIdParams,
    response: { 200: MessagePinResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  }),
  sharedMedia: defineRoute({
    method: 'GET',
    path: '/messages/shared-media',
    access: 'user',
    who: 'a member of the chat',
    summary: '«Медиа из чата»: the photos and videos, or the files, sent in a chat, newest first.',
    query: SharedMediaQuery,
    response: { 200: SharedMediaResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  }),
  attachments: defineRoute({
    method: 'POST',
    path: '/messages/attachments',
    access: 'user',
    summary: 'Answers the stored files’ ids to send with.',
    multipart: AttachmentUpload,
    response: { 200: AttachmentsResponse, 400: ErrorBody, 401: ErrorBody, 413: ErrorBody, 415: ErrorBody },
  }),
};

/**
 * Chat attachments are served under this path by signed, short-lived URLs the server writes into each
 * message (`/messages/files/<id>[/thumb]?e=&s=`, ADR 0007); the browser never builds one, so it is a
 * path prefix rather than a route object.
 */
export const MESSAGE_FILES_PATH = '/messages/files';
