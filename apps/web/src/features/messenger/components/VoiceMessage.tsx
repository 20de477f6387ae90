import type { MessageFile } from '@kadr/contract';
import { Download, Pause, Play } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { formatVoiceTime } from '../hooks/use-voice-recorder.ts';
import { waveformBars } from '../lib/waveform-bars.ts';
import { messengerStrings } from '../strings.ts';
import styles from './VoiceMessage.module.css';

const RATES = [1, 1.5, 2] as const;
const rateLabel = (rate: number) => `${String(rate).replace('.', ',')}×`;

/** A voice message: play/pause, the waveform the server computed (played part lit), time, speed, download. */
export function VoiceMessage({ file }: { file: MessageFile }) {
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState(0);
  const [rate, setRate] = useState<(typeof RATES)[number]>(1);
  const duration = file.duration ?? 0;
  const bars = waveformBars(file.waveform);

  useEffect(() => {
    if (audio.current) audio.current.playbackRate = rate;
  }, [rate]);

  const toggle = () => {
    const el = audio.current;
    if (!el) return;
    if (el.paused) {
      el.playbackRate = rate;
      void el.play().catch(() => setPlaying(false));
    } else el.pause();
  };

  const seek = (fraction: number) => {
    const el = audio.current;
    if (!el || !duration) return;
    el.currentTime = Math.min(duration, Math.max(0, fraction * duration));
    setPosition(el.currentTime);
  };

  const progress = duration ? Math.min(1, position / duration) : 0;
  return (
    <div className={styles.voice} data-testid="voice-message">
      <button
        type="button"
        className={styles.play}
        aria-label={playing ? messengerStrings.voice.pause : messengerStrings.voice.play}
        onClick={toggle}
      >
        {playing ? <Pause size={20} aria-hidden="true" /> : <Play size={20} aria-hidden="true" />}
      </button>
      <div className={styles.body}>
        <div
          className={styles.wave}
          role="slider"
          tabIndex={0}
          aria-label={messengerStrings.voice.message}
          aria-valuemin={0}
          aria-valuemax={Math.round(duration)}
          aria-valuenow={Math.round(position)}
          aria-valuetext={`${formatVoiceTime(position)} / ${formatVoiceTime(duration)}`}
          data-testid="voice-waveform"
          onClick={(event) => {
            const box = event.currentTarget.getBoundingClientRect();
            seek((event.clientX - box.left) / box.width);
          }}
          onKeyDown={(event) => {
            if (event.key === 'ArrowRight') seek((position + 5) / (duration || 1));
            if (event.key === 'ArrowLeft') seek((position - 5) / (duration || 1));
          }}
        >
          {bars.map((height, index) => (
            <span
              // biome-ignore lint/suspicious/noArrayIndexKey: bars are positional and never reorder
              key={index}
              className={index / bars.length < progress ? styles.barPlayed : styles.bar}
              style={{ height: `${Math.max(8, height)}%` }}
            />
          ))}
        </div>
        <div className={styles.meta}>
          <span data-testid="voice-time">
            {playing || position > 0 ? formatVoiceTime(position) : formatVoiceTime(duration)}
          </span>
          <button
            type="button"
            className={styles.rate}
            aria-label={messengerStrings.voice.speed(rateLabel(rate))}
            data-testid="voice-rate"
            onClick={() => setRate(RATES[(RATES.indexOf(rate) + 1) % RATES.length] ?? 1)}
          >
            {rateLabel(rate)}
          </button>
          <a
            className={styles.download}
            href={file.file_url}
            download="voice.m4a"
            aria-label={messengerStrings.voice.download}
            title={messengerStrings.voice.download}
          >
            <Download size={16} aria-hidden="true" />
          </a>
        </div>
      </div>
      {/* biome-ignore lint/a11y/useMediaCaption: a voice message has no captions to offer */}
      <audio
        ref={audio}
        src={file.file_url}
        preload="metadata"
        data-testid="voice-audio"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => {
          setPlaying(false);
          setPosition(0);
        }}
        onTimeUpdate={(event) => setPosition(event.currentTarget.currentTime)}
      />
    </div>
  );
}
