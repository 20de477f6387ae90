import { useCallback, useEffect, useRef, useState } from 'react';

/** Shorter holds are taps, not recordings. */
export const VOICE_MIN_MS = 600;
/** Ten minutes, as the server's cap. */
export const VOICE_MAX_MS = 600_000;

export type RecorderState =
  | { phase: 'idle' }
  | { phase: 'starting' }
  | { phase: 'recording'; startedAt: number; elapsedMs: number };

/** Opus in WebM where the browser has it (Chromium, Firefox), else MP4/AAC (Safari); the server converts. */
function pickMime(): string | undefined {
  const candidates = ['audio/webm;codecs=opus', 'audio/webm', 'audio/mp4', 'audio/ogg;codecs=opus'];
  return candidates.find((type) => MediaRecorder.isTypeSupported?.(type));
}

/**
 * Records the microphone with `MediaRecorder` while the button is held. `stop(true)` hands the recording to
 * `onDone` (with its measured length), `stop(false)` throws it away; the microphone is released either way.
 */
interface Session {
  recorder: MediaRecorder | null;
  stream: MediaStream | null;
  chunks: Blob[];
  startedAt: number;
  /** Set on release: keep or throw away. */
  keep: boolean | null;
}

export function useVoiceRecorder(
  onDone: (file: File, durationMs: number) => void,
  onError: (e: unknown) => void,
) {
  const [state, setState] = useState<RecorderState>({ phase: 'idle' });
  const session = useRef<Session | null>(null);
  const done = useRef(onDone);
  done.current = onDone;

  const release = useCallback(() => {
    const s = session.current;
    for (const track of s?.stream?.getTracks() ?? []) track.stop();
    session.current = null;
    setState({ phase: 'idle' });
  }, []);

  const start = useCallback(async () => {
    if (session.current) return;
    const s: Session = { recorder: null, stream: null, chunks: [], startedAt: 0, keep: null };
    session.current = s;
    setState({ phase: 'starting' });
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      s.stream = stream;
      // Released before the microphone answered.
      if (session.current !== s || (s as Session).keep !== null) {
        for (const track of stream.getTracks()) track.stop();
        if (session.current === s) release();
        return;
      }
      const mimeType = pickMime();
      const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
      s.recorder = recorder;
      recorder.ondataavailable = (event) => {
        if (event.data.size > 0) s.chunks.push(event.data);
      };
      recorder.onstop = () => {
        const durationMs = performance.now() - s.startedAt;
        const type = recorder.mimeType || mimeType || 'audio/webm';
        const ext = type.includes('mp4') ? 'm4a' : type.includes('ogg') ? 'ogg' : 'webm';
        const keep = s.keep === true && durationMs >= VOICE_MIN_MS && s.chunks.length > 0;
        release();
        if (keep) done.current(new File(s.chunks, `voice.${ext}`, { type }), durationMs);
      };
      recorder.start(250);
      s.startedAt = performance.now();
      setState({ phase: 'recording', startedAt: s.startedAt, elapsedMs: 0 });
    } catch (error) {
      release();
      onError(error);
    }
  }, [release, onError]);

  const stop = useCallback(
    (keep: boolean) => {
      const s = session.current;
      if (!s) return;
      s.keep = keep;
      if (s.recorder && s.recorder.state !== 'inactive') s.recorder.stop();
      else if (!s.recorder && s.stream) release();
    },
    [release],
  );

  // The timer on screen, and the cap.
  const recording = state.phase === 'recording';
  useEffect(() => {
    if (!recording) return;
    const timer = window.setInterval(() => {
      const s = session.current;
      if (!s) return;
      const elapsedMs = performance.now() - s.startedAt;
      setState({ phase: 'recording', startedAt: s.startedAt, elapsedMs });
      if (elapsedMs >= VOICE_MAX_MS) stop(true);
    }, 200);
    return () => window.clearInterval(timer);
  }, [recording, stop]);

  // Leaving the chat while recording throws the recording away and frees the microphone.
  useEffect(
    () => () => {
      const s = session.current;
      if (!s) return;
      s.keep = false;
      if (s.recorder && s.recorder.state !== 'inactive') s.recorder.stop();
      for (const track of s.stream?.getTracks() ?? []) track.stop();
    },
    [],
  );

  return { state, start, stop };
}

/** 0:07, 1:23 */
export function formatVoiceTime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
