import { describe, expect, it } from 'vitest';
import { pageTitle } from './page-title.ts';

describe('pageTitle', () => {
  it('names every main page', () => {
    expect(pageTitle('/login')).toBe('Вход · Kadr');
    expect(pageTitle('/register')).toBe('Регистрация · Kadr');
    expect(pageTitle('/home')).toBe('Главная · Kadr');
    expect(pageTitle('/media')).toBe('Медиа · Kadr');
    expect(pageTitle('/media/42')).toBe('Публикация · Kadr');
    expect(pageTitle('/messenger')).toBe('Мессенджер · Kadr');
    expect(pageTitle('/settings/privacy')).toBe('Настройки · Kadr');
  });

  it('puts the person into chat and profile titles', () => {
    expect(pageTitle('/messenger/anna')).toBe('Чат · @anna · Kadr');
    expect(pageTitle('/anna')).toBe('@anna · Kadr');
    expect(pageTitle('/%D0%B0')).toBe('@а · Kadr');
  });

  it('falls back to the app name', () => {
    expect(pageTitle('/')).toBe('Kadr');
  });
});
