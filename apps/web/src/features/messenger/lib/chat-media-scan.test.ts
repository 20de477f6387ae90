import type { Message, Post } from '@kadr/contract';
import { describe, expect, it } from 'vitest';
import { CHAT_MEDIA_MAX_OFFSET, CHAT_MEDIA_PAGE, scanChatMedia } from './chat-media-scan.ts';
import { extractPostIds } from './media-links.ts';

const message = (id: number, content: string) => ({ id, content }) as Message;
const post = (id: number, created_at: string) => ({ id, created_at }) as Post;

describe('media links', () => {
  it('finds /media/post/<id> and /media/<id> links, absolute or bare, once each', () => {
    expect(
      extractPostIds(
        'смотри https://kadr.app/media/post/12 и /media/7, ещё http://localhost:3000/media/post/12 (/media/9)',
      ),
    ).toEqual([12, 7, 9]);
    expect(extractPostIds('/media/post/abc /mediax/5 /media/5/comments 5/media/6')).toEqual([]);
  });
});

describe('chat media scan', () => {
  it('pages by 100 up to offset 500, de-duplicates, drops missing posts, newest first', async () => {
    const offsets: Array<[number, number]> = [];
    const fetched: number[] = [];
    const posts: Record<number, Post> = {
      1: post(1, '2025-01-01T00:00:00Z'),
      2: post(2, '2025-03-01T00:00:00Z'),
      3: post(3, '2025-02-01T00:00:00Z'),
    };
    const result = await scanChatMedia({
      page: async (offset, limit) => {
        offsets.push([offset, limit]);
        const messages = Array.from({ length: limit }, (_, i) => message(offset + i, 'текст'));
        if (offset === 0) messages[0] = message(0, 'https://x/media/post/1 /media/2');
        if (offset === 200) messages[5] = message(205, '/media/post/2 и /media/3 и /media/404');
        return { messages, has_more: true };
      },
      post: async (id) => {
        fetched.push(id);
        return posts[id] ?? null;
      },
    });
    expect(offsets).toEqual(
      [0, 100, 200, 300, 400, 500].map((offset) => [offset, CHAT_MEDIA_PAGE] as [number, number]),
    );
    expect(offsets.at(-1)?.[0]).toBe(CHAT_MEDIA_MAX_OFFSET);
    expect(fetched.sort()).toEqual([1, 2, 3, 404]);
    expect(result.map((p) => p.id)).toEqual([2, 3, 1]);
  });

  it('stops when the conversation has no more pages', async () => {
    let calls = 0;
    const result = await scanChatMedia({
      page: async () => {
        calls++;
        return { messages: [message(1, '/media/post/5')], has_more: false };
      },
      post: async () => {
        throw new Error('network');
      },
    });
    expect(calls).toBe(1);
    expect(result).toEqual([]);
  });
});
