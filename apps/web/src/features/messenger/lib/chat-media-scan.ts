import type { Message, Post } from '@kadr/contract';
import { extractPostIds } from './media-links.ts';

/** Spec §7.1 chat media: conversation pages of 100, up to offset 500. */
export const CHAT_MEDIA_PAGE = 100;
export const CHAT_MEDIA_MAX_OFFSET = 500;

export interface ChatMediaSource {
  page: (offset: number, limit: number) => Promise<{ messages: readonly Message[]; has_more: boolean }>;
  /** A post by id, or null when it is gone (404) or fails to load. */
  post: (id: number) => Promise<Post | null>;
}

/**
 * The posts linked in a chat (the feed's chat mode): pages through the conversation, extracts linked
 * post ids, de-duplicates them, fetches each post and sorts by created_at, newest first.
 */
export async function scanChatMedia(source: ChatMediaSource): Promise<Post[]> {
  const ids: number[] = [];
  const seen = new Set<number>();
  for (let offset = 0; offset <= CHAT_MEDIA_MAX_OFFSET; offset += CHAT_MEDIA_PAGE) {
    const page = await source.page(offset, CHAT_MEDIA_PAGE);
    for (const message of page.messages) {
      for (const id of extractPostIds(message.content)) {
        if (seen.has(id)) continue;
        seen.add(id);
        ids.push(id);
      }
    }
    if (!page.has_more || page.messages.length < CHAT_MEDIA_PAGE) break;
  }
  const posts = await Promise.all(ids.map((id) => source.post(id).catch(() => null)));
  return posts
    .filter((post): post is Post => post !== null)
    .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
}
