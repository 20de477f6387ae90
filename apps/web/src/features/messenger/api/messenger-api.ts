import {
  type AttachmentsResponse,
  type ChatPinResponse,
  type ChatsResponse,
  type ChatTarget,
  type ConversationResponse,
  type DeleteMessageResponse,
  type DeleteScope,
  type ForwardResponse,
  type MarkReadResponse,
  type MessageResponse,
  type PostResponse,
  paths,
  type SendMessageBody,
} from '@kadr/contract';
import { api } from '../../../shared/api/client.ts';

/** The messenger's HTTP calls (contract `paths.messages`), one function each. */
export const messengerApi = {
  chats: (signal?: AbortSignal) => api.get<ChatsResponse>(paths.messages.chats, { signal }),
  conversation: (otherUserId: number, limit: number, offset: number, signal?: AbortSignal) =>
    api.get<ConversationResponse>(paths.messages.conversation, {
      query: { other_user_id: otherUserId, limit, offset },
      signal,
    }),
  send: (body: SendMessageBody) => api.post<MessageResponse>(paths.messages.send, body),
  edit: (id: number, content: string) => api.patch<MessageResponse>(paths.messages.message(id), { content }),
  remove: (id: number, scope: DeleteScope) =>
    api.delete<DeleteMessageResponse>(`${paths.messages.message(id)}?for=${scope}`),
  forward: (messageIds: number[], targets: ChatTarget[]) =>
    api.post<ForwardResponse>(paths.messages.forward, { message_ids: messageIds, targets }),
  pin: (target: ChatTarget) => api.post<ChatPinResponse>(paths.messages.chatPin, target),
  unpin: (target: ChatTarget) => api.delete<ChatPinResponse>(paths.messages.chatPin, { body: target }),
  deleteChat: (target: ChatTarget) => api.delete<{ ok: true }>(paths.messages.chat, { body: target }),
  markRead: (otherUserId: number) =>
    api.post<MarkReadResponse>(paths.messages.read, { other_user_id: otherUserId }),
  uploadAttachments: (files: readonly File[]) => {
    const form = new FormData();
    for (const file of files) form.append('files', file, file.name);
    return api.post<AttachmentsResponse>(paths.messages.attachments, form);
  },
  post: (postId: number, signal?: AbortSignal) => api.get<PostResponse>(paths.media.post(postId), { signal }),
};
