import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useStoriesUi } from '../stories-ui-store.ts';
import { StoryEditor } from './StoryEditor.tsx';

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
