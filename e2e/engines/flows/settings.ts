import { signIn, uniqueUsername } from '../api.ts';
import type { Page } from '../driver.ts';
import type { Flow } from '../flow.ts';
import { check } from '../flow.ts';
import { role } from '../target.ts';

const lastSeenGroup = role('group', 'Кто видит, когда я был(а) в сети');
const nobody = role('radio', 'Никто', lastSeenGroup);

const isChecked = (page: Page) => page.onElement<boolean>(nobody, '(el) => el.checked');

/** A privacy choice in settings: saved on the server and shown again after a reload. */
export const settings: Flow = {
  id: 'settings',
  name: 'Настройки',
  async run({ engine, api, newPage, shot }) {
    const me = await api.register(uniqueUsername(`${engine.slice(0, 2)}set`), 'Настройщик');
    const page = await newPage();
    await signIn(page, me, '/settings');
    await page.waitFor(role('heading', 'Конфиденциальность'));
    await page.click(nobody);
    await page.until('«Никто» chosen', async () => (await isChecked(page)) === true);
    await page.until('the choice saved', async () => (await api.settings(me)).privacy.last_seen === 'nobody');
    await page.goto('/settings');
    await page.waitFor(nobody);
    await page.until('«Никто» still chosen after a reload', async () => (await isChecked(page)) === true);
    await shot(page, 'privacy');
    const stored = await api.settings(me);
    check(stored.privacy.last_seen === 'nobody', `the server keeps last_seen=${stored.privacy.last_seen}`);
  },
};
