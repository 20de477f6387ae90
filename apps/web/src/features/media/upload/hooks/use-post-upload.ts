import type { MediaProcessingEvent } from '@kadr/contract';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, isApiError } from '../../../../shared/api/client.ts';
import { useRealtime } from '../../../../shared/realtime/socket.ts';
import { getAccessToken } from '../../../auth/auth-store.ts';
import { profileKeys } from '../../../profile/api/profile-queries.ts';
import { mediaKeys } from '../../api/media-keys.ts';
import { mediaStrings } from '../../strings.ts';
import { isAbort } from '../lib/picked-files.ts';
import { sendUpload, type UploadInput, uploadForm } from '../lib/upload-request.ts';
import type { UploadStatus } from '../lib/upload-status.ts';

/** While processing, the post is also polled this often in case a socket event was missed. */
const POLL_MS = 3000;

function failed(detail?: string): UploadStatus {
  return {
    status: 'failed',
    message: detail ? `${mediaStrings.upload.failed} ${detail}` : mediaStrings.upload.failed,
  };
}

/**
 * Uploads a post with real byte progress, then follows its processing through the socket's
 * `media-processing` events (spec §4.5).
 */
export function usePostUpload() {
  const [state, setState] = useState<UploadStatus>({ status: 'idle' });
  const socket = useRealtime((s) => s.socket);
  const queryClient = useQueryClient();
  const postId = useRef<number | null>(null);
  // Processing may finish before the upload's answer arrives: events are kept until the id is known.
  const early = useRef(new Map<number, MediaProcessingEvent>());
  const abort = useRef<AbortController | null>(null);

  const apply = useCallback(
    (event: MediaProcessingEvent) => {
      switch (event.status) {
        case 'uploading':
          return;
        case 'processing':
          setState((current) => {
            // Reports may arrive out of order with the poll: progress never goes back.
            const before =
              current.status === 'processing' && current.postId === event.post_id ? current : null;
            if (before?.progress !== undefined && (event.progress ?? 0) < before.progress) return current;
            return {
              status: 'processing',
              postId: event.post_id,
              ...(event.stage ? { stage: event.stage } : before?.stage ? { stage: before.stage } : {}),
              ...(event.progress !== undefined
                ? { progress: event.progress }
                : before?.progress !== undefined
                  ? { progress: before.progress }
                  : {}),
            };
          });
          return;
        case 'done':
          if (!event.post) return;
          setState({ status: 'done', post: event.post });
          postId.current = null;
          void queryClient.invalidateQueries({ queryKey: mediaKeys.all });
          void queryClient.invalidateQueries({ queryKey: profileKeys.detail(event.post.user.username) });
          return;
        case 'failed':
          postId.current = null;
          // The server's reason (ffmpeg refusing the file, the job's cap), from the event or the polled post.
          setState(failed(event.reason ?? event.post?.failure_reason));
          return;
        default: {
          const exhaustive: never = event.status;
          return exhaustive;
        }
      }
    },
    [queryClient],
  );

  useEffect(() => {
    if (!socket) return;
    const onEvent = (event: MediaProcessingEvent) => {
      if (event.post_id === postId.current) apply(event);
      else early.current.set(event.post_id, event);
    };
    socket.on('media-processing', onEvent);
    return () => {
      socket.off('media-processing', onEvent);
    };
  }, [socket, apply]);

  const processingId = state.status === 'processing' ? state.postId : null;
  useEffect(() => {
    if (processingId === null) return;
    const timer = setInterval(() => {
      api
        .call(mediaEndpoints.post, { params: { id: processingId } })
        .then(({ post }) => {
          if (postId.current !== post.id) return;
          if (post.status === 'done' || post.status === 'failed')
            apply({ post_id: post.id, status: post.status, post });
        })
        .catch(() => {});
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [processingId, apply]);

  const start = useCallback(
    async (input: UploadInput) => {
      const token = getAccessToken();
      if (!token) return;
      setState({ status: 'uploading', progress: 0 });
      const controller = new AbortController();
      abort.current = controller;
      try {
        const { post } = await sendUpload(
          uploadForm(input),
          (progress) => setState((s) => (s.status === 'uploading' ? { status: 'uploading', progress } : s)),
          controller.signal,
        );
        postId.current = post.id;
        const seen = early.current.get(post.id);
        early.current.clear();
        if (post.status === 'done') apply({ post_id: post.id, status: 'done', post });
        else if (post.status === 'failed') apply({ post_id: post.id, status: 'failed', post });
        else {
          setState({ status: 'processing', postId: post.id });
          if (seen) apply(seen);
        }
      } catch (error) {
        if (isAbort(error) || controller.signal.aborted) {
          setState({ status: 'failed', message: mediaStrings.upload.cancelled });
          return;
        }
        const detail =
          // A 4xx without the server's `{ error, code }` (a proxy's page) has no detail worth showing.
          isApiError(error) && error.status >= 400 && error.status < 500 && !error.code.startsWith('http_')
            ? error.message
            : undefined;
        setState(failed(detail === mediaStrings.upload.failed ? undefined : detail));
      } finally {
        if (abort.current === controller) abort.current = null;
      }
    },
    [apply],
  );

  const reset = useCallback(() => {
    postId.current = null;
    setState({ status: 'idle' });
  }, []);

  /** Aborts the request in flight; the server drops the partial upload and stores nothing. */
  const cancel = useCallback(() => abort.current?.abort(), []);

  useEffect(() => () => abort.current?.abort(), []);

  return { state, start, reset, cancel };
}
