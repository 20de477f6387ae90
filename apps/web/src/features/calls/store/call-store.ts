import type { Call, CallKind, CallPeer } from '@kadr/contract';
import { create } from 'zustand';

/** The §3 final states a call is shown in briefly before everything resets to idle. */
export type CallOutcome = 'ended' | 'rejected' | 'failed' | 'busy' | 'missed';

/** This device's call, keyed by the spec's §3 states (`idle` = none). */
export type CallView =
  | { status: 'idle' }
  | {
      status: 'ringing';
      direction: 'incoming' | 'outgoing';
      peer: CallPeer;
      kind: CallKind;
      /** Null for an outgoing call until the server answered. */
      call: Call | null;
    }
  | { status: 'connecting'; peer: CallPeer; kind: CallKind; call: Call }
  | { status: 'active'; peer: CallPeer; kind: CallKind; call: Call; startedAt: number }
  | { status: CallOutcome; peer: CallPeer; kind: CallKind; call: Call | null; cancelled: boolean };

export interface CallStats {
  rttMs: number | null;
  lossPercent: number | null;
  bitrateKbps: number | null;
  quality: 'good' | 'fair' | 'poor';
  /** Video frames and audio energy decoded from the peer (what "receiving the peer" means). */
  videoFramesDecoded: number;
  audioEnergy: number;
}

export type CallEncryption =
  | { status: 'pending' }
  | { status: 'on'; fingerprint: string[] }
  | { status: 'off'; reason: 'unsupported' | 'peer-unsupported' };

export type CameraFacing = 'user' | 'environment';

interface CallStore {
  view: CallView;
  /** Shown once after an error reset the call to idle. */
  notice: string | null;
  minimised: boolean;
  micEnabled: boolean;
  cameraEnabled: boolean;
  /** Which camera films: the front one (mirrored preview) or the back one. */
  facing: CameraFacing;
  peerMicMuted: boolean;
  peerCameraMuted: boolean;
  stats: CallStats | null;
  encryption: CallEncryption;
  /** Bumped when the media tracks changed, so the window re-attaches them. */
  mediaVersion: number;
}

export const initialCallStore: CallStore = {
  view: { status: 'idle' },
  notice: null,
  minimised: false,
  micEnabled: true,
  cameraEnabled: true,
  facing: 'user',
  peerMicMuted: false,
  peerCameraMuted: false,
  stats: null,
  encryption: { status: 'pending' },
  mediaVersion: 0,
};

export const useCallStore = create<CallStore>(() => initialCallStore);

/** The call id a view is about, if the server has one yet. */
export function viewCallId(view: CallView): number | null {
  switch (view.status) {
    case 'idle':
      return null;
    case 'ringing':
      return view.call?.id ?? null;
    case 'connecting':
    case 'active':
      return view.call.id;
    case 'ended':
    case 'rejected':
    case 'failed':
    case 'busy':
    case 'missed':
      return view.call?.id ?? null;
  }
}

/** Ringing, connecting or active: the browser warns before unload, a second call is not started. */
export function isLive(view: CallView): boolean {
  switch (view.status) {
    case 'ringing':
    case 'connecting':
    case 'active':
      return true;
    case 'idle':
    case 'ended':
    case 'rejected':
    case 'failed':
    case 'busy':
    case 'missed':
      return false;
  }
}
