import { useEffect, useState } from 'react';
import styles from './Spinner.module.css';

/**
 * How long a wait lasts before its spinner turns. A shorter wait needs no sign (under a second a person keeps
 * their flow) and a spinner would only flash; while the HTML's frame still covers the app on a first load
 * (app/boot/frame-overlay.ts), the spinners under it were unseen, yet their endless animation had the
 * compositor draw a frame every 16 ms on the cores the page's own start-up needed.
 */
export const SPINNER_DELAY_MS = 500;

export function Spinner({ size = 32 }: { size?: number }) {
  const [turning, setTurning] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setTurning(true), SPINNER_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);
  // The box is there from the start, so the spinner's arrival moves nothing.
  return (
    <span
      className={turning ? styles.spinner : styles.box}
      style={{ width: size, height: size }}
      aria-hidden="true"
    />
  );
}
