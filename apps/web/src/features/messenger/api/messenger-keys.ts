/** TanStack Query keys of the messenger. A conversation is keyed by the peer id (own id = favorites). */
export const messengerKeys = {
  all: ['messenger'] as const,
  chats: () => [...messengerKeys.all, 'chats'] as const,
  conversations: () => [...messengerKeys.all, 'conversation'] as const,
  conversation: (peerId: number) => [...messengerKeys.conversations(), peerId] as const,
  chatMedia: (peerId: number) => [...messengerKeys.all, 'chat-media', peerId] as const,
  postPreview: (postId: number) => [...messengerKeys.all, 'post-preview', postId] as const,
};
