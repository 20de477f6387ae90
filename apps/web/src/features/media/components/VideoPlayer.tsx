import type { PostFile } from '@kadr/contract';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { Button } from '../../../shared/ui/Button.tsx';
import { initialPlayerState, playerReducer } from '../lib/player-state.ts';
import type { PreloadPolicy, PreloadState } from '../lib/preload.ts';
import { mediaStrings } from '../strings.ts';
import styles from './FeedPost.module.css';

interface Props {
  file: PostFile;
  alt: string;
  preload: PreloadState;
  mode: PreloadPolicy['mode'];
  /** Active and not paused by the user. */
  playing: boolean;
  rate: number;
  muted: boolean;
  rotation: number;
  /** The browser refused sound without a gesture; playback continues muted. */
  onAutoplayMuted: () => void;
}

/** Arrow keys on the seek bar jump this far: the bar's 0.05 s step is for dragging, not for keys. */
const SEEK_KEY_STEP_S = 5;
const SEEK_KEYS: Record<string, (at: number, duration: number) => number> = {
  ArrowLeft: (at) => at - SEEK_KEY_STEP_S,
  ArrowDown: (at) => at - SEEK_KEY_STEP_S,
  ArrowRight: (at) => at + SEEK_KEY_STEP_S,
  ArrowUp: (at) => at + SEEK_KEY_STEP_S,
  Home: () => 0,
  End: (_at, duration) => duration,
};

/** Frees the decoder and the buffered bytes: without `load()` Chromium keeps both. */
function release(video: HTMLVideoElement) {
  video.pause();
  video.removeAttribute('src');
  video.load();
}

/** One post's video (spec §4.8): loads per the preload window, plays only while active, loops. */
export function VideoPlayer({
  file,
  alt,
  preload,
  mode,
  playing,
  rate,
  muted,
  rotation,
  onAutoplayMuted,
}: Props) {
  const ref = useRef<HTMLVideoElement>(null);
  const [state, dispatch] = useReducer(playerReducer, initialPlayerState);
  const wanted = preload === 'active' || preload === 'preload';
  const [time, setTime] = useState({ at: 0, duration: 0 });

  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    if (preload === 'unload') {
      if (video.getAttribute('src')) release(video);
      dispatch({ type: 'unload' });
      return;
    }
    if (!wanted) return;
    video.preload = preload === 'active' ? 'auto' : mode;
    if (!video.getAttribute('src')) {
      video.src = file.file_url;
      dispatch({ type: 'load' });
    }
  }, [preload, wanted, mode, file.file_url]);

  useEffect(() => {
    const video = ref.current;
    return () => {
      if (video) release(video);
    };
  }, []);

  const start = useCallback(() => {
    const video = ref.current;
    if (!video) return;
    video.muted = muted;
    video.play().catch((error: unknown) => {
      if (error instanceof DOMException && error.name === 'NotAllowedError' && !video.muted) {
        video.muted = true;
        onAutoplayMuted();
        void video.play().catch(() => {});
      }
    });
  }, [muted, onAutoplayMuted]);

  const canPlay = state.status !== 'error' && state.status !== 'unloaded';
  useEffect(() => {
    const video = ref.current;
    if (!video || !canPlay) return;
    if (playing) start();
    else video.pause();
  }, [playing, canPlay, start]);

  // Leaving the screen starts the post over next time.
  useEffect(() => {
    const video = ref.current;
    if (preload !== 'active' && video && video.currentTime > 0) video.currentTime = 0;
  }, [preload]);

  useEffect(() => {
    if (ref.current) ref.current.playbackRate = rate;
  }, [rate]);

  useEffect(() => {
    if (ref.current) ref.current.muted = muted;
  }, [muted]);

  const retry = () => {
    const video = ref.current;
    if (!video) return;
    dispatch({ type: 'retry' });
    video.src = file.file_url;
    video.load();
    if (playing) start();
  };

  const seek = (at: number) => {
    const clamped = Math.max(0, Math.min(at, time.duration));
    if (ref.current) ref.current.currentTime = clamped;
    setTime((t) => ({ ...t, at: clamped }));
  };

  const rotated = rotation === 90 || rotation === 270;
  return (
    <div className={styles.videoBox}>
      <video
        ref={ref}
        className={`${styles.video} ${rotated ? styles.rotated : ''}`}
        style={rotation ? { transform: `translate(-50%, -50%) rotate(${rotation}deg)` } : undefined}
        poster={file.thumbnail_url ?? undefined}
        loop
        playsInline
        muted={muted}
        aria-label={alt}
        data-state={state.status}
        data-preload={preload}
        onLoadedMetadata={(event) => {
          dispatch({ type: 'loadedmetadata' });
          setTime({ at: 0, duration: event.currentTarget.duration || 0 });
        }}
        onTimeUpdate={(event) =>
          setTime({ at: event.currentTarget.currentTime, duration: event.currentTarget.duration || 0 })
        }
        onPlay={() => dispatch({ type: 'play' })}
        onPause={() => dispatch({ type: 'pause' })}
        onError={() => {
          if (ref.current?.getAttribute('src')) dispatch({ type: 'error' });
        }}
      />
      {preload === 'active' && time.duration > 0 && Number.isFinite(time.duration) ? (
        // A thin seek bar: dragged like any slider, outside the feed's swipe gestures.
        <input
          className={styles.seek}
          type="range"
          min={0}
          max={time.duration}
          step={0.05}
          value={Math.min(time.at, time.duration)}
          aria-label={mediaStrings.seek}
          aria-valuetext={`${Math.floor(time.at)} / ${Math.floor(time.duration)}`}
          data-no-gesture
          data-overlay
          onPointerDown={(event) => event.stopPropagation()}
          onChange={(event) => seek(Number(event.currentTarget.value))}
          onKeyDown={(event) => {
            const next = SEEK_KEYS[event.key];
            if (!next) return;
            event.preventDefault();
            seek(next(time.at, time.duration));
          }}
        />
      ) : null}
      {state.status === 'error' ? (
        <div className={styles.errorOverlay} role="alert" data-no-gesture>
          <p className={styles.errorTitle}>{mediaStrings.mediaError}</p>
          <p className={styles.errorHint}>{mediaStrings.mediaErrorHint}</p>
          <Button variant="secondary" onClick={retry}>
            {mediaStrings.retry}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
