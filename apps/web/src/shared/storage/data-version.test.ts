import { DATA_VERSION } from '@kadr/contract/browser';
import { describe, expect, it } from 'vitest';
import { ensureDataVersion } from './data-version.ts';
import { StorageKeys } from './keys.ts';

describe('ensureDataVersion', () => {
  it('is 1.1.0 per spec', () => {
    expect(DATA_VERSION).toBe('1.1.0');
  });

  it('clears data written by another version and stamps the current one', () => {
    localStorage.setItem(StorageKeys.dataVersion, '1.0.0');
    localStorage.setItem(StorageKeys.authAccessToken, 'old-token');
    localStorage.setItem(StorageKeys.mediaMode, 'sleep');
    localStorage.setItem('someLegacyKey', 'x');

    expect(ensureDataVersion()).toBe(true);
    expect(localStorage.getItem(StorageKeys.authAccessToken)).toBeNull();
    expect(localStorage.getItem(StorageKeys.mediaMode)).toBeNull();
    expect(localStorage.getItem('someLegacyKey')).toBeNull();
    expect(localStorage.getItem(StorageKeys.dataVersion)).toBe('1.1.0');
  });

  it('treats a missing version as stale', () => {
    localStorage.setItem(StorageKeys.authUser, '{"id":1}');
    expect(ensureDataVersion()).toBe(true);
    expect(localStorage.getItem(StorageKeys.authUser)).toBeNull();
    expect(localStorage.getItem(StorageKeys.dataVersion)).toBe(DATA_VERSION);
  });

  it('keeps data written by the current version', () => {
    localStorage.setItem(StorageKeys.dataVersion, DATA_VERSION);
    localStorage.setItem(StorageKeys.authAccessToken, 'token');
    expect(ensureDataVersion()).toBe(false);
    expect(localStorage.getItem(StorageKeys.authAccessToken)).toBe('token');
  });
});
