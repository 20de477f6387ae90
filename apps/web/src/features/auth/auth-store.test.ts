import { beforeEach, describe, expect, it } from 'vitest';
import { StorageKeys } from '../../shared/storage/keys.ts';
import { me, storeSession } from '../../test/fixtures.ts';
import { readStoredAuth, useAuthStore } from './auth-store.ts';

describe('auth store', () => {
  beforeEach(() => useAuthStore.setState({ auth: { status: 'guest' } }));

  it('starts as guest without a stored token', () => {
    expect(readStoredAuth()).toEqual({ status: 'guest' });
  });

  it('starts signed in, unconfirmed, with the stored token and user (no round trip before content)', () => {
    storeSession('abc');
    expect(readStoredAuth()).toEqual({ status: 'signedIn', token: 'abc', user: me, unconfirmed: true });
  });

  it('waits for the server with a stored token but no stored user', () => {
    localStorage.setItem(StorageKeys.authAccessToken, 'abc');
    expect(readStoredAuth()).toEqual({ status: 'checking', token: 'abc', user: null });
  });

  it('clears all auth data when auth:user is corrupt JSON', () => {
    localStorage.setItem(StorageKeys.authAccessToken, 'abc');
    localStorage.setItem(StorageKeys.authUser, '{"id": 7, "username":');
    localStorage.setItem(StorageKeys.username, 'anna');
    useAuthStore.getState().hydrate();
    expect(useAuthStore.getState().auth).toEqual({ status: 'guest' });
    expect(localStorage.getItem(StorageKeys.authAccessToken)).toBeNull();
    expect(localStorage.getItem(StorageKeys.authUser)).toBeNull();
    expect(localStorage.getItem(StorageKeys.username)).toBeNull();
  });

  it('clears auth data when auth:user is JSON of the wrong shape', () => {
    localStorage.setItem(StorageKeys.authAccessToken, 'abc');
    localStorage.setItem(StorageKeys.authUser, '"anna"');
    expect(readStoredAuth()).toEqual({ status: 'guest' });
    expect(localStorage.getItem(StorageKeys.authAccessToken)).toBeNull();
  });

  it('signIn stores token, user and the user id/name/username keys; clear removes them', () => {
    useAuthStore.getState().signIn({ access_token: 'tok', user: me });
    expect(useAuthStore.getState().auth).toEqual({ status: 'signedIn', token: 'tok', user: me });
    expect(localStorage.getItem(StorageKeys.authAccessToken)).toBe('tok');
    expect(JSON.parse(localStorage.getItem(StorageKeys.authUser) ?? '')).toEqual(me);
    expect(localStorage.getItem(StorageKeys.userId)).toBe('7');
    expect(localStorage.getItem(StorageKeys.userName)).toBe('Анна');
    expect(localStorage.getItem(StorageKeys.username)).toBe('anna');

    useAuthStore.getState().clear();
    expect(useAuthStore.getState().auth).toEqual({ status: 'guest' });
    for (const key of [
      StorageKeys.authAccessToken,
      StorageKeys.authUser,
      StorageKeys.userId,
      StorageKeys.username,
    ]) {
      expect(localStorage.getItem(key)).toBeNull();
    }
  });
});
