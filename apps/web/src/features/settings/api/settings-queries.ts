import type { ChatSettings, ChatTarget, MuteDuration, Settings, SettingsPatch } from '@kadr/contract';
import { settingsEndpoints } from '@kadr/contract/settings/endpoints';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';
import { applyAppearance } from '../../../shared/lib/appearance.ts';
import { StorageKeys } from '../../../shared/storage/keys.ts';
import { local } from '../../../shared/storage/local.ts';

export const settingsKeys = {
  all: ['settings'] as const,
  document: () => [...settingsKeys.all, 'document'] as const,
  sessions: () => [...settingsKeys.all, 'sessions'] as const,
  blocked: () => [...settingsKeys.all, 'blocked'] as const,
  mutes: () => [...settingsKeys.all, 'mutes'] as const,
};

const loadMutes = async () => (await api.call(settingsEndpoints.mutes, {})).mutes;

/** `patch` laid over `current` (what the server does), for the optimistic update. */
export function patched(current: Settings, patch: SettingsPatch): Settings {
  const types = { ...current.notifications.types };
  for (const [key, value] of Object.entries(patch.notifications?.types ?? {}))
    types[key as keyof typeof types] = { ...types[key as keyof typeof types], ...value };
  return {
    privacy: { ...current.privacy, ...patch.privacy },
    notifications: {
      types,
      message_sounds: patch.notifications?.message_sounds ?? current.notifications.message_sounds,
    },
    chat: { ...current.chat, ...patch.chat },
  };
}

/**
 * The chat settings applied to this page, with local copies for the first paint before the server answers:
 * theme and text size, and reduced unread badges (spec §3 key `messenger_hideUnreadBadges`).
 */
function applyChatSettings(chat: ChatSettings): void {
  applyAppearance(chat);
  local.set(StorageKeys.messengerHideUnreadBadges, String(chat.reduced_badges));
}

/** The server's settings, applied to the page (theme, text size) whenever they arrive. */
export async function loadSettings(queryClient: QueryClient): Promise<Settings> {
  const settings = await api.call(settingsEndpoints.get, {});
  applyChatSettings(settings.chat);
  queryClient.setQueryData(settingsKeys.document(), settings);
  return settings;
}

export function useSettings() {
  const queryClient = useQueryClient();
  return useQuery({ queryKey: settingsKeys.document(), queryFn: () => loadSettings(queryClient) });
}

/**
 * How long other features trust the cached settings: they arrive when the socket attaches and change
 * through `useUpdateSettings`, so a chat switch never refetches them.
 */
export const SETTINGS_STALE_MS = 5 * 60_000;
/** How long the mute list decides message sounds before it is asked again. */
export const MUTES_STALE_MS = 60_000;

/**
 * One of the user's server-stored preferences, for the features that follow them (Enter sends, reduced
 * badges, message sounds); `fallback` until the settings have loaded (or while not `enabled`: signed out).
 */
export function useSetting<T>(select: (settings: Settings) => T, fallback: T, enabled = true): T {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: settingsKeys.document(),
    queryFn: () => loadSettings(queryClient),
    staleTime: SETTINGS_STALE_MS,
    select,
    enabled,
  });
  return query.data ?? fallback;
}

/** The mute list, cached for `MUTES_STALE_MS`, for code outside React (an incoming message's sound). */
export function fetchMutes(queryClient: QueryClient) {
  return queryClient.fetchQuery({
    queryKey: settingsKeys.mutes(),
    queryFn: loadMutes,
    staleTime: MUTES_STALE_MS,
  });
}

/** The settings as cached, loading them once when they are not. */
export function ensureSettings(queryClient: QueryClient): Promise<Settings> {
  return queryClient.ensureQueryData({
    queryKey: settingsKeys.document(),
    queryFn: () => loadSettings(queryClient),
  });
}

/** Optimistic: the switch moves (and the theme changes) at once; a refusal rolls it back. */
export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SettingsPatch) => api.call(settingsEndpoints.update, { body }),
    onMutate: async (patch) => {
      await queryClient.cancelQueries({ queryKey: settingsKeys.document() });
      const previous = queryClient.getQueryData<Settings>(settingsKeys.document());
      if (previous) {
        const next = patched(previous, patch);
        queryClient.setQueryData(settingsKeys.document(), next);
        applyChatSettings(next.chat);
      }
      return { previous };
    },
    onError: (_error, _patch, context) => {
      if (!context?.previous) return;
      queryClient.setQueryData(settingsKeys.document(), context.previous);
      applyChatSettings(context.previous.chat);
    },
    onSuccess: (settings) => {
      queryClient.setQueryData(settingsKeys.document(), settings);
      applyChatSettings(settings.chat);
    },
  });
}

export function useSessions() {
  return useQuery({
    queryKey: settingsKeys.sessions(),
    queryFn: async () => (await api.call(settingsEndpoints.sessions, {})).sessions,
  });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(settingsEndpoints.endSession, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.sessions() }),
  });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { current_password: string; new_password: string }) =>
      api.call(settingsEndpoints.changePassword, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.sessions() }),
  });
}

export function useDeleteAccount() {
  return useMutation({
    mutationFn: (password: string) => api.call(settingsEndpoints.deleteAccount, { body: { password } }),
  });
}

export function useBlocked() {
  return useQuery({
    queryKey: settingsKeys.blocked(),
    queryFn: async () => (await api.call(settingsEndpoints.blocked, {})).users,
  });
}

export function useSetBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ username, block }: { username: string; block: boolean }) =>
      block
        ? api.call(settingsEndpoints.block, { params: { username } })
        : api.call(settingsEndpoints.unblock, { params: { username } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.blocked() }),
  });
}

export function useMutes() {
  return useQuery({ queryKey: settingsKeys.mutes(), queryFn: loadMutes });
}

export function useMuteChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { chat: ChatTarget; duration: MuteDuration }) =>
      api.call(settingsEndpoints.mute, { body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.mutes() }),
  });
}

/** From outside the settings screen (a chat's menu): blocks, then the blocked list refetches when shown. */
export async function blockUser(username: string): Promise<void> {
  await api.call(settingsEndpoints.block, { params: { username } });
}
