import type {
  GroupVoiceEvent,
  GroupVoiceParticipantEvent,
  VoiceHandBody,
  VoiceParticipant,
  VoiceSession,
} from '@kadr/contract';
import { voiceEndpoints } from '@kadr/contract/voice/endpoints';
import type { QueryClient } from '@tanstack/react-query';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { api, errorMessage, isApiError } from '../../shared/api/client.ts';
import { browserHasWebRtc } from '../../shared/livekit/webrtc-support.ts';
import type { KadrSocket } from '../../shared/realtime/socket.ts';
import { voiceStrings as t } from './strings.ts';
import type { VoiceMedia, VoiceMediaEvents } from './voice-media.ts';

/** This device in a group voice chat (spec §4.2): one chat at a time. */
export type VoiceView =
  | { status: 'idle' }
  | { status: 'connecting'; groupId: number; groupName: string }
  | { status: 'connected'; groupId: number; groupName: string; session: VoiceSession };

export interface VoiceState {
  view: VoiceView;
  participants: VoiceParticipant[];
  micEnabled: boolean;
  minimised: boolean;
  /** `user-<id>` identities speaking now. */
  speaking: string[];
  /** `user-<id>` identities whose microphone is muted. */
  mutedIds: string[];
  /** Received audio bytes per remote identity (refreshed every 2 s). */
  inbound: Record<string, number>;
  notice: string | null;
}

const initial: VoiceState = {
  view: { status: 'idle' },
  participants: [],
  micEnabled: true,
  minimised: false,
  speaking: [],
  mutedIds: [],
  inbound: {},
  notice: null,
};

export const identityOf = (userId: number) => `user-${userId}`;
export const voiceKeys = { session: (groupId: number) => ['voice', 'session', groupId] as const };

export const voiceApi = {
  /**
   * The running session, or null when there is none (answered 200 with null: opening a group logged a 404
   * for the normal "no voice chat" state; an older server's 404 still means none, spec §8).
   */
  async session(groupId: number): Promise<VoiceSession | null> {
    try {
      return await api.call(voiceEndpoints.get, { params: { id: groupId } });
    } catch (error) {
      if (isApiError(error) && error.status === 404) return null;
      throw error;
    }
  },
  join: (groupId: number) => api.call(voiceEndpoints.join, { params: { id: groupId } }),
  leave: (groupId: number) => api.call(voiceEndpoints.leave, { params: { id: groupId } }),
  end: (groupId: number) => api.call(voiceEndpoints.end, { params: { id: groupId } }),
  hand: (groupId: number, body: VoiceHandBody) =>
    api.call(voiceEndpoints.hand, { params: { id: groupId }, body }),
};

export type VoiceApi = typeof voiceApi;
export type ConnectVoiceMedia = (options: {
  serverUrl: string;
  token: string;
  on: VoiceMediaEvents;
}) => Promise<VoiceMedia>;

/** livekit-client is fetched on the first join, never with the first scripts. */
const connectLazily: ConnectVoiceMedia = async (options) =>
  (await import('./voice-media.ts')).connectVoiceMedia(options);

/** Replaces one participant in the list (a hand raised or lowered); someone not listed is not added. */
function withParticipant(list: VoiceParticipant[], changed: VoiceParticipant): VoiceParticipant[] {
  return list.map((p) => (p.user_id === changed.user_id ? changed : p));
}

/** The §8 text for a media connection that failed, with LiveKit's reason when it gave one. */
function connectFailure(reason: string): string {
  return reason ? t.connectError(reason) : t.connectFailed;
}

export interface VoiceController {
  /** The state the panel, the mini bar and the group header read. */
  store: StoreApi<VoiceState>;
  actions: {
    join(groupId: number, groupName: string): Promise<void>;
    leave(): Promise<void>;
    endForAll(): Promise<void>;
    /** Raise or lower one's own hand; with `userId`, lower someone else's (the starter or an admin). */
    setHand(raised: boolean, userId?: number): Promise<void>;
    toggleMicrophone(): Promise<void>;
    setMinimised(minimised: boolean): void;
    dismissNotice(): void;
  };
  /** voiceApi's session check, for the group header's query. */
  session(groupId: number): Promise<VoiceSession | null>;
  /** §7.6 events into the state; returns the detach. */
  attachRealtime(socket: KadrSocket): () => void;
  /** Leaves the chat this device is in (the provider unmounting: sign-out). */
  dispose(): void;
}

/**
 * One device's group voice session: the state union, the media room it holds, and the §7.6 events.
 * Built once by VoiceChatProvider; the API and the media connection are passed in so tests drive it.
 */
export function createVoiceController({
  queryClient,
  voice = voiceApi,
  connectMedia = connectLazily,
}: {
  queryClient: QueryClient;
  voice?: VoiceApi;
  connectMedia?: ConnectVoiceMedia;
}): VoiceController {
  const store = createStore<VoiceState>(() => initial);
  const set = store.setState;
  const view = () => store.getState().view;
  let media: VoiceMedia | null = null;
  let statsTimer: ReturnType<typeof setInterval> | null = null;

  function refresh(groupId: number) {
    void queryClient.invalidateQueries({ queryKey: voiceKeys.session(groupId) });
  }

  async function drop() {
    if (statsTimer !== null) clearInterval(statsTimer);
    statsTimer = null;
    const m = media;
    media = null;
    await m?.disconnect().catch(() => undefined);
  }

  function reset(notice: string | null = null) {
    const current = view();
    void drop();
    set({ ...initial, notice });
    if (current.status !== 'idle') refresh(current.groupId);
  }

  function mine(groupId: number) {
    const current = view();
    return current.status !== 'idle' && current.groupId === groupId;
  }

  const actions: VoiceController['actions'] = {
    async join(groupId, groupName) {
      const current = view();
      if (current.status !== 'idle') {
        if (current.groupId === groupId) set({ minimised: false });
        return;
      }
      // Without WebRTC the media room could never connect: say so before the server starts a chat or gives
      // a seat in one (before, livekit-client refused after the join: «LiveKit doesn't seem to be supported…»).
      if (!browserHasWebRtc()) {
        set({ ...initial, notice: t.webrtcUnsupported });
        return;
      }
      set({ ...initial, view: { status: 'connecting', groupId, groupName } });
      let joined: Awaited<ReturnType<VoiceApi['join']>>;
      try {
        joined = await voice.join(groupId);
      } catch (error) {
        reset(isApiError(error) ? t.connectError(errorMessage(error)) : t.sessionDataMissing);
        return;
      }
      if (!joined.access_token || !joined.server_url) {
        void voice.leave(groupId).catch(() => undefined);
        reset(t.sessionDataMissing);
        return;
      }
      const { server_url, access_token, ...session } = joined;
      set({ participants: session.participants });
      refresh(groupId);
      try {
        const connected = await connectMedia({
          serverUrl: server_url,
          token: access_token,
          on: {
            speakers: (speaking) => set({ speaking }),
            muted: (identity, muted) =>
              set((s) => ({
                mutedIds: muted
                  ? [...s.mutedIds.filter((i) => i !== identity), identity]
                  : s.mutedIds.filter((i) => i !== identity),
              })),
            lost: (reason) => {
              void voice.leave(groupId).catch(() => undefined);
              reset(connectFailure(reason));
            },
          },
        });
        const now = view();
        if (now.status !== 'connecting' || now.groupId !== groupId) {
          await connected.disconnect();
          return;
        }
        media = connected;
        set({ view: { status: 'connected', groupId, groupName, session } });
        statsTimer = setInterval(() => {
          void media
            ?.inbound()
            .then((inbound) => set({ inbound }))
            .catch(() => undefined);
        }, 2000);
      } catch (error) {
        void voice.leave(groupId).catch(() => undefined);
        reset(connectFailure(error instanceof Error ? error.message : ''));
      }
    },

    async leave() {
      const current = view();
      if (current.status === 'idle') return;
      reset();
      await voice.leave(current.groupId).catch(() => undefined);
    },

    async endForAll() {
      const current = view();
      if (current.status !== 'connected') return;
      try {
        await voice.end(current.groupId);
        reset();
      } catch (error) {
        set({ notice: errorMessage(error) });
      }
    },

    async setHand(raised, userId) {
      const current = view();
      if (current.status !== 'connected') return;
      try {
        const changed = await voice.hand(current.groupId, {
          raised,
          ...(userId === undefined ? {} : { user_id: userId }),
        });
        set((s) => ({ participants: withParticipant(s.participants, changed) }));
      } catch (error) {
        set({ notice: errorMessage(error) });
      }
    },

    async toggleMicrophone() {
      const enabled = !store.getState().micEnabled;
      set({ micEnabled: enabled });
      await media?.setMicrophone(enabled).catch((error) => set({ notice: errorMessage(error) }));
    },

    setMinimised(minimised) {
      set({ minimised });
    },

    dismissNotice() {
      set({ notice: null });
    },
  };

  /** §7.6: participant changes refresh the list; the end of the chat makes everyone in it leave. */
  function attachRealtime(socket: KadrSocket): () => void {
    const onJoined = (event: GroupVoiceParticipantEvent) => {
      refresh(event.group_id);
      if (!mine(event.group_id)) return;
      set((s) => ({
        participants: [
          ...s.participants.filter((p) => p.user_id !== event.participant.user_id),
          event.participant,
        ],
      }));
    };
    const onLeft = (event: GroupVoiceParticipantEvent) => {
      refresh(event.group_id);
      if (!mine(event.group_id)) return;
      set((s) => ({ participants: s.participants.filter((p) => p.user_id !== event.participant.user_id) }));
    };
    const onHand = (event: GroupVoiceParticipantEvent) => {
      if (!mine(event.group_id)) return;
      set((s) => ({ participants: withParticipant(s.participants, event.participant) }));
    };
    const onEnded = (event: GroupVoiceEvent) => {
      refresh(event.group_id);
      if (mine(event.group_id)) reset();
    };
    socket.on('group-voice-participant-joined', onJoined);
    socket.on('group-voice-participant-left', onLeft);
    socket.on('group-voice-ended', onEnded);
    socket.on('group-voice-hand-changed', onHand);
    return () => {
      socket.off('group-voice-hand-changed', onHand);
      socket.off('group-voice-participant-joined', onJoined);
      socket.off('group-voice-participant-left', onLeft);
      socket.off('group-voice-ended', onEnded);
    };
  }

  return {
    store,
    actions,
    session: (groupId) => voice.session(groupId),
    attachRealtime,
    dispose() {
      void actions.leave();
    },
  };
}
