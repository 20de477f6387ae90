import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { act } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { runShellCommand } from '../../../shell/lib/shell-commands.ts';
import { useUploadUi } from '../upload-ui-store.ts';
import { CreateContentHost } from './CreateContentHost.tsx';

describe('CreateContentHost', () => {
  it('the add button opens the chooser with Публикация, История and Прямой эфир; Публикация opens the upload form', async () => {
    useUploadUi.setState({ modal: null });
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <CreateContentHost />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    act(() => {
      expect(runShellCommand('home.add')).toBe(true);
    });
    const chooser = screen.getByRole('dialog', { name: 'Создать' });
    expect(Array.from(chooser.querySelectorAll('li')).map((li) => li.textContent)).toEqual([
      'Публикация',
      'История',
      'Прямой эфир',
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Публикация' }));
    const form = await screen.findByRole('dialog', { name: 'Новая публикация' });
    expect(form).toBeInTheDocument();

    // The §5 checks run before anything is sent, with their exact texts, inside the form (no alert()).
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const problem = () => within(form).getByRole('alert');
    await userEvent.click(screen.getByRole('button', { name: 'Опубликовать' }));
    expect(problem()).toHaveTextContent('Пожалуйста, выберите файлы для загрузки');
    const input = screen.getByLabelText('Видео или изображения');
    await userEvent.upload(input, [
      new File(['v'], 'a.mp4', { type: 'video/mp4' }),
      new File(['i'], 'b.png', { type: 'image/png' }),
    ]);
    expect(problem()).toHaveTextContent('Выберите либо одно видео, либо одно или несколько изображений');
    await userEvent.upload(input, [new File(['v'], 'a.mp4', { type: 'video/mp4' })]);
    const cover = screen.getByLabelText('Обложка (необязательно)');
    await userEvent.upload(cover, new File(['v'], 'c.mp4', { type: 'video/mp4' }), { applyAccept: false });
    expect(problem()).toHaveTextContent('Пожалуйста, выберите изображение для обложки');
    expect(screen.getByText('Выбрано файлов: 1')).toBeInTheDocument();
    expect(alert).not.toHaveBeenCalled();
  });

  it('the live entry closes the chooser and opens the live starter', async () => {
    useUploadUi.setState({ modal: null });
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/home']}>
          <CreateContentHost />
          <Routes>
            <Route path="/live/new" element={<p>starter</p>} />
            <Route path="*" element={null} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    act(() => {
      runShellCommand('home.add');
    });
    await userEvent.click(screen.getByRole('button', { name: 'Прямой эфир' }));
    expect(await screen.findByText('starter')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Создать' })).not.toBeInTheDocument();
  });
});
