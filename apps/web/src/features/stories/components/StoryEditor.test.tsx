import type { StoryText } from '@kadr/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useStoriesUi } from '../stories-ui-store.ts';
import { StoryEditor } from './StoryEditor.tsx';

// jsdom has no 2D canvas for Konva: the stage is stood in for by the texts it would draw.
vi.mock('./StoryCanvas.tsx', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./StoryCanvas.tsx')>()),
  StoryCanvas: ({ items }: { items: { kind: string; text?: string }[] }) => (
    <ul>{items.map((item) => (item.kind === 'text' ? <li key={item.text}>{item.text}</li> : null))}</ul>
  ),
}));

/** The forms the editor sent (the network stops here; the server's side has its own tests). */
const sent: FormData[] = [];
vi.mock('../api/upload-story.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/upload-story.ts')>()),
  sendStory: async (form: FormData) => {
    sent.push(form);
    return { story: { id: sent.length } };
  },
}));

/** The editor as StoriesHost mounts it: open while the store says so, opened from a button. */
function Page() {
  const open = useStoriesUi((s) => s.editorOpen);
  return (
    <QueryClientProvider client={new QueryClient()}>
      <main>
        <button type="button" onClick={() => useStoriesUi.getState().openEditor()}>
          Открыть
        </button>
      </main>
      {open ? <StoryEditor /> : null}
    </QueryClientProvider>
  );
}

describe('StoryEditor on the shared sheet', () => {
  beforeEach(() => useStoriesUi.getState().closeEditor());

  it('is a modal dialog named by its title; Escape closes it and focus returns to the opener', async () => {
    render(<Page />);
    const opener = screen.getByRole('button', { name: 'Открыть' });
    await userEvent.click(opener);
    const dialog = screen.getByTestId('story-editor');
    expect(dialog).toHaveAttribute('role', 'dialog');
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleName('Новая история');
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(screen.getByRole('main')).toHaveProperty('inert', true);
    await userEvent.keyboard('{Escape}');
    expect(useStoriesUi.getState().editorOpen).toBe(false);
    expect(screen.queryByTestId('story-editor')).not.toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveProperty('inert', false);
    expect(opener).toHaveFocus();
  });

  it('its close button closes it and gives focus back', async () => {
    render(<Page />);
    const opener = screen.getByRole('button', { name: 'Открыть' });
    await userEvent.click(opener);
    await userEvent.click(
      within(screen.getByTestId('story-editor')).getByRole('button', { name: 'Закрыть' }),
    );
    expect(screen.queryByTestId('story-editor')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });
});

describe('StoryEditor: text on a video story', () => {
  beforeEach(() => {
    useStoriesUi.getState().closeEditor();
    sent.length = 0;
    // jsdom has no object URLs; the editor only hands the string to <video>.
    URL.createObjectURL = vi.fn(() => 'blob:clip');
    URL.revokeObjectURL = vi.fn();
    globalThis.ResizeObserver ??= class {
      observe() {}
      disconnect() {}
      unobserve() {}
    };
  });

  it('places the typed text on the video and sends it with the upload for the server to draw', async () => {
    render(<Page />);
    await userEvent.click(screen.getByRole('button', { name: 'Открыть' }));
    const clip = new File([new Uint8Array(64)], 'clip.mp4', { type: 'video/mp4' });
    await userEvent.upload(screen.getByTestId('story-file'), clip);
    const editor = screen.getByTestId('story-editor');
    expect(within(editor).getByTestId('story-video-texts')).toBeInTheDocument();
    await userEvent.type(within(editor).getByRole('textbox', { name: 'Ваш текст' }), '  Привет  ');
    await userEvent.click(within(editor).getByRole('button', { name: 'Добавить текст' }));
    expect(within(within(editor).getByTestId('story-video-texts')).getByText('Привет')).toBeInTheDocument();
    await userEvent.click(within(editor).getByRole('button', { name: 'Опубликовать' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    const texts = JSON.parse(String(sent[0]?.get('texts'))) as StoryText[];
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatchObject({ text: 'Привет', size: 48, color: '#ffffff' });
    expect(sent[0]?.get('media_type')).toBe('video');
  }, 30_000);

  it('sends no texts field for a video left without text', async () => {
    render(<Page />);
    await userEvent.click(screen.getByRole('button', { name: 'Открыть' }));
    await userEvent.upload(
      screen.getByTestId('story-file'),
      new File([new Uint8Array(64)], 'clip.mp4', { type: 'video/mp4' }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Опубликовать' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.has('texts')).toBe(false);
  }, 30_000);
});
