import type { MessengerSearchResponse } from '@kadr/contract';
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chatOf, jsonResponse, me } from '../../../test/fixtures.ts';
import { stubbedApp } from '../../../test/query-harness.tsx';
import { messengerStrings } from '../strings.ts';
import { MessageSearchResults } from './MessageSearchResults.tsx';

afterEach(() => vi.unstubAllGlobals());

const boris = chatOf();
const found: MessengerSearchResponse = {
  forms: ['фонтан'],
  people: [],
  groups: [],
  channels: [],
  messages: [
    {
      id: 51,
      conversation_id: 3,
      chat: { type: 'personal', user_id: boris.user_id, is_favorites: false },
      chat_type: 'personal',
      chat_title: boris.username,
      sender: {
        id: me.id,
        username: me.username,
        name: me.name,
        avatar_url: null,
        avatar_thumbnail_url: null,
      },
      content: 'У **фонтана** в семь 👍',
      created_at: '2025-01-02T10:00:00.000Z',
    },
  ],
};

describe('the messages found by the chat search', () => {
  it('shows a hit as plain text under its chat, its emoji drawn from the shipped set, and opens the chat', async () => {
    const { wrapper } = stubbedApp((url) =>
      url.includes('/search/messenger') ? jsonResponse(found) : new Promise<Response>(() => undefined),
    );
    const onOpen = vi.fn();
    render(<MessageSearchResults query="фонтан" chats={[boris]} onOpen={onOpen} />, { wrapper });

    const hit = await screen.findByTestId('message-search-hit', undefined, { timeout: 2000 });
    expect(screen.getByRole('region', { name: messengerStrings.foundMessages })).toContainElement(hit);
    expect(hit).toHaveTextContent(`${boris.username}У фонтана в семь`);
    const emoji = screen.getByRole('img', { name: '👍' });
    expect(emoji).toHaveAttribute('src', '/emoji/1f44d.svg');
    expect(hit).toContainElement(emoji);

    fireEvent.click(hit);
    expect(onOpen).toHaveBeenCalledWith(boris);
  });
});
