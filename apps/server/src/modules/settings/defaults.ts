import type { NotifyChannels, Settings, SettingsPatch } from '@kadr/contract';

const on = (): NotifyChannels => ({ in_app: true, push: true });

/** What a user who never opened settings has. */
export function defaultSettings(): Settings {
  return {
    privacy: {
      messages: 'everyone',
      last_seen: 'everyone',
      calls: 'everyone',
      group_add: 'everyone',
      private_account: false,
    },
    notifications: {
      types: {
        message: on(),
        call: on(),
        like: on(),
        comment: on(),
        follow: on(),
        repost: on(),
        mention: on(),
        reply: on(),
      },
      message_sounds: true,
    },
    chat: { enter_sends: true, reduced_badges: false, text_size: 'medium', theme: 'dark' },
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * `patch` laid over `base`, keeping only the keys and value types `base` has (a stored document from an
 * older version, or a partial patch, never adds or breaks a field).
 */
export function mergeSettings<T>(base: T, patch: unknown): T {
  if (!isObject(base) || !isObject(patch)) return base;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(base)) {
    if (!(key in patch)) continue;
    const next = patch[key];
    if (isObject(value)) out[key] = mergeSettings(value, next);
    else if (typeof next === typeof value) out[key] = next;
  }
  return out as T;
}

export const applyPatch = (current: Settings, patch: SettingsPatch): Settings =>
  mergeSettings(current, patch);
