import { createContext } from 'react';
import type { ChatMediaState } from '../hooks/use-chat-media.ts';

/**
 * The chat a message list belongs to: a post card in it opens the feed in chat mode on that post
 * (spec §2.4, #18 item 7). Null outside a chat (a plain link to the post).
 */
export const PostCardChat = createContext<ChatMediaState | null>(null);
