import { formatCallDuration } from '@kadr/contract/browser';
import { useEffect, useState } from 'react';

/** The running duration, re-rendered every second (spec §4.1). */
export function CallDuration({ startedAt }: { startedAt: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <time data-testid="call-duration" dateTime={`PT${Math.floor((now - startedAt) / 1000)}S`}>
      {formatCallDuration((now - startedAt) / 1000)}
    </time>
  );
}
