import type { StorageKey } from './keys.ts';

/**
 * localStorage access that never throws: private modes and full quotas make the Storage API throw,
 * and a failed write must not break the screen that asked for it.
 */
export const local = {
  get(key: StorageKey): string | null {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: StorageKey, value: string): void {
    try {
      localStorage.setItem(key, value);
    } catch {
      // Quota or privacy mode: the value simply is not persisted.
    }
  },
  remove(...keys: StorageKey[]): void {
    for (const key of keys) {
      try {
        localStorage.removeItem(key);
      } catch {
        // See set().
      }
    }
  },
  /** `undefined` when the key is missing, `{ corrupt: true }` when it holds invalid JSON. */
  getJson(key: StorageKey): { value: unknown } | { corrupt: true } | undefined {
    const raw = local.get(key);
    if (raw === null) return undefined;
    try {
      return { value: JSON.parse(raw) as unknown };
    } catch {
      return { corrupt: true };
    }
  },
  setJson(key: StorageKey, value: unknown): void {
    local.set(key, JSON.stringify(value));
  },
};
