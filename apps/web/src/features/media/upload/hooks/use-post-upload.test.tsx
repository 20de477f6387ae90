import type { MediaProcessingEvent } from '@kadr/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectApiToAuth } from '../../../../app/connect-api.ts';
import { type KadrSocket, useRealtime } from '../../../../shared/realtime/socket.ts';
import { me } from '../../../../test/fixtures.ts';
import { postOf } from '../../../../test/posts.ts';
import { useAuthStore } from '../../../auth/auth-store.ts';
import { usePostUpload } from './use-post-upload.ts';

/** Just enough XMLHttpRequest to drive progress and the answer by hand. */
class FakeXhr {
  static last: FakeXhr | null = null;
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } =
    {
      onprogress: null,
    };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  response: unknown = null;
  responseType = '';
  headers: Record<string, string> = {};
  url = '';
  body: unknown;
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
    FakeXhr.last = this;
  }
  abort() {}
  answer(status: number, response: unknown) {
    this.status = status;
    this.response = response;
    this.onload?.();
  }
}

function fakeSocket() {
  const handlers = new Map<string, (event: MediaProcessingEvent) => void>();
  const socket = {
    on: (name: string, handler: (event: MediaProcessingEvent) => void) => handlers.set(name, handler),
    off: (name: string) => handlers.delete(name),
  };
  return {
    socket: socket as unknown as KadrSocket,
    emit: (e: MediaProcessingEvent) => handlers.get('media-processing')?.(e),
  };
}

const input = {
  files: [new File(['x'], 'a.png', { type: 'image/png' })],
  cover: null,
  caption: 'Подпись',
  mediaType: 'photo' as const,
};

function setup() {
  const queryClient = new QueryClient();
  // The app wires the API client to the auth store at start (main.tsx); the upload goes through it.
  connectApiToAuth(queryClient);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  return renderHook(() => usePostUpload(), { wrapper });
}

describe('usePostUpload', () => {
  beforeEach(() => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    useAuthStore.setState({ auth: { status: 'signedIn', token: 'tok', user: me } });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    useRealtime.setState({ socket: null, connected: false });
  });

  it('goes uploading (with real progress) → processing → done from socket events', async () => {
    const { socket, emit } = fakeSocket();
    useRealtime.setState({ socket, connected: true });
    const { result } = setup();
    let started: Promise<void> = Promise.resolve();
    act(() => {
      started = result.current.start(input);
    });
    const xhr = FakeXhr.last as FakeXhr;
    expect(xhr.url).toBe('/api/v1/media/upload');
    expect(xhr.headers.Authorization).toBe('Bearer tok');
    const form = xhr.body as FormData;
    expect(form.get('media_type')).toBe('photo');
    expect(form.get('caption')).toBe('Подпись');
    expect(form.getAll('files')).toHaveLength(1);

    act(() => xhr.upload.onprogress?.({ lengthComputable: true, loaded: 40, total: 100 }));
    expect(result.current.state).toEqual({ status: 'uploading', progress: 0.4 });

    await act(async () => {
      xhr.answer(202, { post: postOf({ id: 31, status: 'processing', files: [] }) });
      await started;
    });
    expect(result.current.state).toEqual({ status: 'processing', postId: 31 });

    const done = postOf({ id: 31 });
    act(() => emit({ post_id: 99, status: 'done', post: postOf({ id: 99 }) }));
    expect(result.current.state.status).toBe('processing');
    act(() => emit({ post_id: 31, status: 'done', post: done }));
    expect(result.current.state).toEqual({ status: 'done', post: done });
  });

  it('fails with the §8 text plus the server reason, and can start again', async () => {
    const { result } = setup();
    let started: Promise<void> = Promise.resolve();
    act(() => {
      started = result.current.start(input);
    });
    await act(async () => {
      FakeXhr.last?.answer(415, {
        error: 'Пожалуйста, выберите видео или изображения',
        code: 'unsupported_media_type',
      });
      await started;
    });
    expect(result.current.state).toEqual({
      status: 'failed',
      message: 'Ошибка при загрузке. Попробуйте снова. Пожалуйста, выберите видео или изображения',
    });
  });

  it('a processing failure pushed over the socket fails the upload', async () => {
    const { socket, emit } = fakeSocket();
    useRealtime.setState({ socket, connected: true });
    const { result } = setup();
    let started: Promise<void> = Promise.resolve();
    act(() => {
      started = result.current.start(input);
    });
    await act(async () => {
      FakeXhr.last?.answer(202, { post: postOf({ id: 32, status: 'processing', files: [] }) });
      await started;
    });
    act(() => emit({ post_id: 32, status: 'failed' }));
    expect(result.current.state).toEqual({
      status: 'failed',
      message: 'Ошибка при загрузке. Попробуйте снова.',
    });
  });

  it("a file the server's decoder refused: the upload fails with the reason it sent", async () => {
    const { socket, emit } = fakeSocket();
    useRealtime.setState({ socket, connected: true });
    const { result } = setup();
    let started: Promise<void> = Promise.resolve();
    act(() => {
      started = result.current.start(input);
    });
    await act(async () => {
      FakeXhr.last?.answer(202, { post: postOf({ id: 33, status: 'processing', files: [] }) });
      await started;
    });
    const reason = 'Не удалось обработать файл: формат не поддерживается или файл повреждён';
    act(() => emit({ post_id: 33, status: 'failed', reason }));
    expect(result.current.state).toEqual({
      status: 'failed',
      message: `Ошибка при загрузке. Попробуйте снова. ${reason}`,
    });
  });
});
