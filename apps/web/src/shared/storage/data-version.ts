import { DATA_VERSION } from '@kadr/contract/browser';
import { StorageKeys } from './keys.ts';
import { local } from './local.ts';

/**
 * Clears everything the app stored when it was written by another data version, so no stale shape
 * is ever read back, then stamps the current version. Returns whether a cleanup happened.
 */
export function ensureDataVersion(): boolean {
  if (local.get(StorageKeys.dataVersion) === DATA_VERSION) return false;
  try {
    localStorage.clear();
  } catch {
    // Storage unavailable: nothing to clean.
  }
  local.set(StorageKeys.dataVersion, DATA_VERSION);
  return true;
}
