import type { VoiceParticipant } from '@kadr/contract';
import { AudioLines, Hand, MicOff } from 'lucide-react';
import { voiceStrings as t } from '../strings.ts';
import styles from './Voice.module.css';

/**
 * One person in the voice chat's list: who is speaking now (LiveKit's active speakers: a ring on the
 * avatar and 'говорит'), whose microphone is off, and a raised hand — which those running the chat may
 * lower. A muted microphone wins over a stale speaking report (the server's list trails the mute).
 */
export function VoiceParticipantRow({
  participant,
  speaking,
  muted,
  canLowerHand,
  inboundBytes,
  onLowerHand,
}: {
  participant: VoiceParticipant;
  speaking: boolean;
  muted: boolean;
  /** The starter or an admin looking at someone else's raised hand. */
  canLowerHand: boolean;
  /** Audio received from this person so far (what the media e2e reads). */
  inboundBytes: number;
  onLowerHand(): void;
}) {
  const isSpeaking = speaking && !muted;
  const raised = participant.hand_raised_at !== null;
  return (
    <li
      className={styles.person}
      data-testid="voice-participant"
      data-user-id={participant.user_id}
      data-speaking={isSpeaking}
      data-muted={muted}
      data-hand-raised={raised}
      data-inbound-bytes={inboundBytes}
    >
      <span className={`${styles.avatar} ${isSpeaking ? styles.speaking : ''}`} aria-hidden="true">
        {participant.avatar_url ? (
          <img src={participant.avatar_url} width={40} height={40} alt="" />
        ) : (
          participant.name.slice(0, 1).toUpperCase()
        )}
      </span>
      <span className={styles.personName}>{participant.name}</span>
      <span className={styles.personState}>
        {isSpeaking ? (
          <span className={styles.speakingMark} data-testid="voice-speaking">
            <AudioLines size={14} aria-hidden="true" />
            {t.speaking}
          </span>
        ) : null}
        {muted ? (
          <MicOff
            size={14}
            className={styles.mutedIcon}
            role="img"
            aria-label={t.muted}
            data-testid="voice-muted"
          />
        ) : null}
        {raised && canLowerHand ? (
          <button
            type="button"
            className={styles.lowerHand}
            onClick={onLowerHand}
            aria-label={t.lowerHandOf(participant.name)}
            title={t.lowerHandOf(participant.name)}
          >
            <Hand size={16} aria-hidden="true" />
          </button>
        ) : raised ? (
          <Hand size={16} className={styles.handIcon} aria-label={t.handRaised} role="img" />
        ) : null}
      </span>
    </li>
  );
}
