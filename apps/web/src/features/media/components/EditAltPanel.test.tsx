import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/fixtures.ts';
import { postOf } from '../../../test/posts.ts';
import { UploadProgress } from '../upload/components/UploadProgress.tsx';
import { EditAltPanel } from './EditAltPanel.tsx';

const post = postOf({
  id: 5,
  ai_description: 'Собака рядом с велосипедом на улице',
  ai_objects: ['собака', 'велосипед'],
  ai_tags: ['dogs', 'animals', 'for_sleep'],
});

function renderPanel(onClose = () => {}) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <EditAltPanel post={post} onClose={onClose} />
    </QueryClientProvider>,
  );
}

describe('EditAltPanel', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('starts from the tagger’s text and tags and sends the author’s edit', async () => {
    const fetch = vi.fn().mockResolvedValueOnce(
      jsonResponse({
        post: { ...post, ai_description: 'Пёс у велосипеда', ai_tags: ['for_sleep', 'dogs'] },
      }),
    );
    vi.stubGlobal('fetch', fetch);
    const onClose = vi.fn();
    renderPanel(onClose);
    const field = screen.getByLabelText('Описание для незрячих и поиска');
    expect(field).toHaveValue('Собака рядом с велосипедом на улице');
    expect(screen.getByText('ИИ нашёл: собака, велосипед')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Собаки' })).toBeChecked();
    // Sleep mode has its own switch: not offered here, kept by the server.
    expect(screen.queryByRole('checkbox', { name: 'Для сна' })).toBeNull();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Животные' }));
    await userEvent.clear(field);
    await userEvent.type(field, '  Пёс у велосипеда ');
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/v1/media/post/5/alt');
    expect(fetch.mock.calls[0]?.[1].method).toBe('PUT');
    expect(JSON.parse(fetch.mock.calls[0]?.[1].body)).toEqual({
      alt_text: 'Пёс у велосипеда',
      tags: ['dogs'],
    });
  });

  it('refuses an empty text without a request and shows the server’s refusal', async () => {
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(
        jsonResponse({ error: 'Изменить публикацию может только её автор', code: 'forbidden' }, 403),
      );
    vi.stubGlobal('fetch', fetch);
    renderPanel();
    const field = screen.getByLabelText('Описание для незрячих и поиска');
    await userEvent.clear(field);
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Описание не может быть пустым');
    expect(fetch).not.toHaveBeenCalled();
    await userEvent.type(field, 'Собака');
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Изменить публикацию может только её автор')).toBeInTheDocument();
  });
});

describe('UploadProgress while processing', () => {
  it('shows the server’s stage and percentage as a progress bar', () => {
    render(<UploadProgress state={{ status: 'processing', postId: 1, stage: 'tagging', progress: 62 }} />);
    const bar = screen.getByRole('progressbar', { name: 'ИИ-обработка...' });
    expect(bar).toHaveAttribute('aria-valuenow', '62');
    expect(bar).toHaveAttribute('aria-valuetext', 'ИИ распознаёт объекты: 62%');
    expect(screen.getByRole('status')).toHaveTextContent('ИИ-обработка... 62% — ИИ распознаёт объекты');
  });

  it('before the first report says only that processing runs', () => {
    render(<UploadProgress state={{ status: 'processing', postId: 1 }} />);
    expect(screen.getByRole('status')).toHaveTextContent('ИИ-обработка...');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
