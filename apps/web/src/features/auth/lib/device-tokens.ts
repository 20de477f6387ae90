import { StorageKeys } from '../../../shared/storage/keys.ts';
import { local } from '../../../shared/storage/local.ts';

/** Accounts remembered on one device (a shared computer may have a few). */
const KEPT = 5;

function read(): Record<string, string> {
  const stored = local.getJson(StorageKeys.authDevices);
  if (!stored || !('value' in stored) || typeof stored.value !== 'object' || stored.value === null) return {};
  return Object.fromEntries(
    Object.entries(stored.value as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

/**
 * The token the server gave this device at its last sign-in to an account: sent with the next login to
 * that account, it skips the proof-of-work challenge an attack on the username would otherwise ask for.
 */
export const deviceTokens = {
  of(username: string): string | undefined {
    return read()[username.trim().toLowerCase()];
  },
  remember(username: string, token: string | undefined): void {
    if (!token) return;
    const key = username.trim().toLowerCase();
    const entries = Object.entries(read()).filter(([name]) => name !== key);
    entries.push([key, token]);
    local.set(StorageKeys.authDevices, JSON.stringify(Object.fromEntries(entries.slice(-KEPT))));
  },
};
