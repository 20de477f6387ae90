import { useEffect, useState } from 'react';
import { type ConnectionInfo, choosePreloadPolicy, type PreloadPolicy } from '../lib/preload.ts';

type NetworkInformation = ConnectionInfo & EventTarget;

const connection = (): NetworkInformation | undefined =>
  (navigator as Navigator & { connection?: NetworkInformation }).connection;

/** Mobile per spec §9: 768 px or narrower, or a mobile user agent. */
const isMobile = () =>
  (window.matchMedia?.('(max-width: 768px)').matches ?? false) ||
  /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent);

/** The §9 preload window for this device and connection, following connection changes. */
export function usePreloadPolicy(): PreloadPolicy {
  const [policy, setPolicy] = useState(() => choosePreloadPolicy(connection(), isMobile()));
  useEffect(() => {
    const update = () => setPolicy(choosePreloadPolicy(connection(), isMobile()));
    const info = connection();
    info?.addEventListener('change', update);
    window.addEventListener('resize', update);
    return () => {
      info?.removeEventListener('change', update);
      window.removeEventListener('resize', update);
    };
  }, []);
  return policy;
}
