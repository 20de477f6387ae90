import { describe, expect, it } from 'vitest';
import { shellEntries } from '../../../app/features.ts';
import { contextButtonsFor, menuEntriesFor, type NavContext, type ShellEntry } from './nav-config.ts';

const context = (section: NavContext['section'], isOwnPost = false, isVideoPost = false): NavContext => ({
  section,
  username: 'anna',
  isOwnPost,
  isVideoPost,
});

/** Every feature registered (notifications, groups and channels have landed). */
const allOn: readonly ShellEntry[] = shellEntries;
/** No feature registered. */
const allOff: readonly ShellEntry[] = [];

describe('shell entries', () => {
  it('renders no entry of a feature that has not landed: only the menu button and common menu entries', () => {
    for (const section of ['media', 'home', 'messenger'] as const) {
      expect(contextButtonsFor(context(section), allOff).map((e) => e.id)).toEqual(['menu']);
      expect(menuEntriesFor(context(section), allOff).map((e) => e.id)).toEqual([
        'profile',
        'settings',
        'logout',
      ]);
    }
  });

  it('shows the messenger search, the create entries of the registered groups feature, and reduced badges', () => {
    expect(contextButtonsFor(context('messenger'), shellEntries).map((e) => e.id)).toEqual([
      'search',
      'menu',
    ]);
    expect(menuEntriesFor(context('messenger'), shellEntries).map((e) => e.id)).toEqual([
      'profile',
      'settings',
      'create-group',
      'create-channel',
      'reduced-badges',
      'logout',
    ]);
  });

  it('shows the spec entries per page once their features are on', () => {
    expect(contextButtonsFor(context('media'), allOn).map((e) => e.id)).toEqual([
      'modes',
      'search',
      'menu',
      'feed-settings',
    ]);
    expect(contextButtonsFor(context('home'), allOn).map((e) => e.id)).toEqual([
      'add',
      'notifications',
      'menu',
    ]);
    expect(contextButtonsFor(context('messenger'), allOn).map((e) => e.id)).toEqual(['search', 'menu']);
    expect(menuEntriesFor(context('messenger'), allOn).map((e) => e.id)).toEqual([
      'profile',
      'settings',
      'create-group',
      'create-channel',
      'reduced-badges',
      'logout',
    ]);
  });

  it('offers delete-post only on the own post', () => {
    expect(menuEntriesFor(context('media', false), allOn).map((e) => e.id)).not.toContain('delete-post');
    expect(menuEntriesFor(context('media', true), allOn).map((e) => e.id)).toContain('delete-post');
  });

  it('offers «Повернуть видео» only while a video post is on screen', () => {
    expect(menuEntriesFor(context('media', false, false), allOn).map((e) => e.id)).not.toContain('rotate');
    expect(menuEntriesFor(context('media', false, true), allOn).map((e) => e.id)).toContain('rotate');
  });

  it('profile entry leads to the own username, settings to /settings/profile', () => {
    const [profile, settings] = menuEntriesFor(context('home'), shellEntries);
    expect(profile?.label).toBe('Профиль');
    expect(settings?.label).toBe('Настройки');
    const to = (action: unknown) =>
      (action as { kind: 'navigate'; to: (c: NavContext) => string }).to(context('home'));
    expect(to(profile?.action)).toBe('/anna');
    expect(to(settings?.action)).toBe('/settings/profile');
  });
});
