import type { ChatTarget, DeleteScope, SendMessageBody } from '@kadr/contract';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import { messengerEndpoints as m } from '@kadr/contract/messenger/endpoints';
import { api } from '../../../shared/api/client.ts';

/** The messenger's HTTP calls (contract `messengerRoutes`), one function each. */
export const messengerApi = {
  chats: (signal?: AbortSignal) => api.call(m.chats, { signal }),
  conversation: (otherUserId: number, limit: number, offset: number, signal?: AbortSignal) =>
    api.call(m.conversation, { query: { other_user_id: otherUserId, limit, offset }, signal }),
  send: (body: SendMessageBody) => api.call(m.send, { body }),
  edit: (id: number, content: string) => api.call(m.edit, { params: { id }, body: { content } }),
  remove: (id: number, scope: DeleteScope) => api.call(m.remove, { params: { id }, query: { for: scope } }),
  forward: (messageIds: number[], targets: ChatTarget[]) =>
    api.call(m.forward, { body: { message_ids: messageIds, targets } }),
  pin: (target: ChatTarget) => api.call(m.pin, { body: target }),
  unpin: (target: ChatTarget) => api.call(m.unpin, { body: target }),
  deleteChat: (target: ChatTarget) => api.call(m.deleteChat, { body: target }),
  markRead: (otherUserId: number) => api.call(m.read, { body: { other_user_id: otherUserId } }),
  /** `voice`: the file is a voice recording (the server processes it to AAC with a waveform). */
  uploadAttachments: (files: readonly File[], options: { voice?: boolean } = {}) => {
    const form = new FormData();
    if (options.voice) form.append('voice', '1');
    for (const file of files) form.append('files', file, file.name);
    return api.call(m.attachments, { form });
  },
  around: (messageId: number, limit: number, signal?: AbortSignal) =>
    api.call(m.around, { params: { id: messageId }, query: { limit }, signal }),
  pinMessage: (messageId: number) => api.call(m.pinMessage, { params: { id: messageId } }),
  unpinMessage: (messageId: number) => api.call(m.unpinMessage, { params: { id: messageId } }),
  post: (postId: number, signal?: AbortSignal) =>
    api.call(mediaEndpoints.post, { params: { id: postId }, signal }),
};
