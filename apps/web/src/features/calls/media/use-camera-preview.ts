import { useEffect, useState } from 'react';

/**
 * This device's camera shown to its own user while a video call rings (the call's capture belongs to the
 * room and is published only once answered). Stopped as soon as it is no longer wanted.
 */
export function useCameraPreview(enabled: boolean, facing: 'user' | 'environment'): MediaStream | null {
  const [stream, setStream] = useState<MediaStream | null>(null);
  useEffect(() => {
    if (!enabled || !navigator.mediaDevices?.getUserMedia) return;
    let stopped = false;
    let own: MediaStream | null = null;
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: facing }, audio: false })
      .then((captured) => {
        if (stopped) {
          for (const track of captured.getTracks()) track.stop();
          return;
        }
        own = captured;
        setStream(captured);
      })
      // No camera or no permission: the ringing screen shows the peer's avatar only.
      .catch(() => undefined);
    return () => {
      stopped = true;
      for (const track of own?.getTracks() ?? []) track.stop();
      setStream(null);
    };
  }, [enabled, facing]);
  return stream;
}

/** Whether this device has more than one camera (a phone's front and back): only then is flipping offered. */
export function useSeveralCameras(enabled: boolean): boolean {
  const [several, setSeveral] = useState(false);
  useEffect(() => {
    if (!enabled || !navigator.mediaDevices?.enumerateDevices) return;
    let current = true;
    void navigator.mediaDevices
      .enumerateDevices()
      .then((devices) => {
        if (current) setSeveral(devices.filter((d) => d.kind === 'videoinput').length > 1);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [enabled]);
  return several;
}
