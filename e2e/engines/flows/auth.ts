import { PASSWORD, uniqueUsername } from '../api.ts';
import type { Flow } from '../flow.ts';
import { label, role, text } from '../target.ts';

/** A guest registers through the form, logs out from the menu and logs back in. */
export const auth: Flow = {
  id: 'auth',
  name: 'Регистрация и вход',
  async run({ engine, newPage, shot }) {
    const page = await newPage();
    const username = uniqueUsername(`${engine.slice(0, 2)}reg`);
    await page.goto('/');
    await page.waitForPath(/\/login$/);
    await page.waitFor(role('heading', 'Вход'));
    await page.click(role('link', 'Зарегистрироваться'));
    await page.waitForPath(/\/register$/);
    // The register page is its own chunk: a field filled before it has rendered is emptied when it does
    // (seen in Chromium with three engines starting at once).
    await page.waitFor(role('heading', 'Регистрация'));
    await page.fill(label('Имя пользователя'), username);
    await page.fill(label('Имя'), 'Новый Участник');
    await page.fill(label('Пароль'), PASSWORD);
    await page.click(role('button', 'Зарегистрироваться'));
    await page.waitForPath(/\/home$/);
    await page.waitFor(role('heading', 'Главная'));
    await page.waitForText('Главная лента');
    await shot(page, 'home');

    await page.click(role('button', 'Открыть меню'));
    await page.click(role('menuitem', 'Выйти'));
    await page.waitForPath(/\/login$/);
    const token = await page.evaluate(() => localStorage.getItem('auth:accessToken'));
    if (token !== null) throw new Error('the token outlived the logout');

    await page.fill(label('Имя пользователя'), username);
    await page.fill(label('Пароль'), PASSWORD);
    await page.click(role('button', 'Войти'));
    await page.waitForPath(/\/home$/);
    await page.waitFor(role('heading', 'Главная'));
    await page.waitFor(text('Главная лента'));
  },
};
