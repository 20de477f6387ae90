import type { ChatRef, ChatsResponse, Message } from '@kadr/contract';
import type { QueryClient } from '@tanstack/react-query';
import { chatKey, truncatePreview } from '../lib/chat-order.ts';
import { parseMarkdown, plainText } from '../lib/markdown-parse.ts';
import { useMessageBanner } from '../store/message-banner.ts';
import { messengerStrings } from '../strings.ts';
import { isChat } from './chats-cache.ts';
import { bannerWanted } from './message-sounds.ts';
import { messengerKeys } from './messenger-keys.ts';

/** The banner's line for a message: its text as plain text, or what it carries. */
export function bannerPreview(message: Pick<Message, 'content' | 'files'>): string {
  if (message.content) return truncatePreview(plainText(parseMarkdown(message.content)));
  const file = message.files[0];
  return file ? messengerStrings.filePreview[file.file_type] : messengerStrings.attachmentPreview;
}

/**
 * A new message in a chat that is not on screen shows the in-app banner (avatar, name, text), unless the
 * chat is muted — as Telegram shows one over any screen.
 */
export async function showMessageBanner(
  queryClient: QueryClient,
  event: { chat: ChatRef; message: Message; ownId: number; openPeerId: number | null },
): Promise<void> {
  if (!(await bannerWanted(queryClient, event))) return;
  const { chat, message } = event;
  const row = queryClient
    .getQueryData<ChatsResponse>(messengerKeys.chats())
    ?.chats.find((item) => isChat(item, chat));
  const title =
    chat.type === 'personal' ? message.sender_name : `${row?.username ?? ''} · ${message.sender_name}`;
  useMessageBanner.getState().show({
    chat,
    chatKey: chatKey(chat),
    title,
    sender: {
      name: message.sender_name,
      username: message.sender_username,
      avatarUrl: chat.type === 'personal' ? message.sender_avatar_url : (row?.avatar_url ?? null),
    },
    preview: bannerPreview(message),
  });
}
