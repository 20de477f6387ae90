import { signIn, uniqueUsername } from '../api.ts';
import type { Flow } from '../flow.ts';
import { role, testId, text } from '../target.ts';

const bell = role('button', /^Уведомления(, \d+\+?)?$/);

/** A follow reaches the open page's bell badge; the panel says who followed. */
export const notifications: Flow = {
  id: 'notifications',
  name: 'Уведомления',
  async run({ engine, api, newPage, shot }) {
    const a = await api.register(uniqueUsername(`${engine.slice(0, 2)}na`), 'Анна');
    const b = await api.register(uniqueUsername(`${engine.slice(0, 2)}nb`), 'Борис');
    const page = await newPage();
    await signIn(page, a, '/home');
    await page.waitFor(bell);
    await page.waitGone(testId('context-badge', bell));
    // The app connects its socket at idle, after the first data; an event before that is not delivered live
    // (shared/realtime/refetch-missed.ts). A message B sends turns delivered once A's socket is in.
    await api.waitOnline(b, a);
    await api.follow(b, a);
    await page.until(
      'the badge at 1',
      async () => (await page.textOf(testId('context-badge', bell))) === '1',
      45_000,
    );
    await page.click(bell);
    const panel = role('dialog', 'Уведомления');
    await page.waitFor(panel);
    await page.waitFor(text(/^Борис теперь подписан\(а\) на вас/, panel));
    await shot(page, 'panel');
  },
};
