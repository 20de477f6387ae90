import { signIn, uniqueUsername } from '../api.ts';
import type { Page } from '../driver.ts';
import type { Flow } from '../flow.ts';
import { role, text } from '../target.ts';

/** The delivery status of the message bubble holding `content` (null while there is none). */
function statusOf(page: Page, content: string): Promise<string | null> {
  return page.evaluate((wanted: string) => {
    const bubbles = Array.from(document.querySelectorAll<HTMLElement>('[data-testid="message"]'));
    const bubble = bubbles.find((b) => (b.textContent ?? '').includes(wanted));
    return bubble ? (bubble.dataset.status ?? 'shown') : null;
  }, content);
}

async function waitStatus(page: Page, content: string, wanted: RegExp): Promise<void> {
  await page.until(`message «${content}» ${wanted}`, async () =>
    wanted.test((await statusOf(page, content)) ?? ''),
  );
}

async function send(page: Page, content: string): Promise<void> {
  await page.fill(role('textbox', 'Сообщение'), content);
  await page.click(role('button', 'Отправить'));
}

/**
 * Two users of the same engine chat live: a message arrives without a reload, turns read when opened, a
 * reply comes back; offline, a message waits in the outbox and goes once the network returns.
 */
export const messenger: Flow = {
  id: 'messenger',
  name: 'Мессенджер',
  async run({ engine, api, newPage, shot, note }) {
    const a = await api.register(uniqueUsername(`${engine.slice(0, 2)}ma`), 'Анна');
    const b = await api.register(uniqueUsername(`${engine.slice(0, 2)}mb`), 'Борис');
    const A = await newPage();
    const B = await newPage();
    await signIn(A, a, `/messenger/${b.user.username}`);
    await A.waitForText('Нет сообщений');
    await send(A, 'Первое');
    await waitStatus(A, 'Первое', /^(sent|delivered|read)$/);

    // B opens the chat: the message is there, and A's copy turns read without a reload.
    await signIn(B, b, `/messenger/${a.user.username}`);
    await B.waitFor(text('Первое', { testId: 'message' }));
    await waitStatus(A, 'Первое', /^read$/);

    // Both open: B's reply reaches A live.
    await send(B, 'Ответ Бориса');
    await A.waitFor(text('Ответ Бориса', { testId: 'message' }));
    await shot(A, 'chat');

    // Offline: the message waits in the outbox and goes once the network is back.
    if (!(await A.setOffline(true))) {
      note('офлайн: драйвер не отключает сеть');
      return;
    }
    await A.until('offline seen by the page', () => A.evaluate(() => !navigator.onLine));
    await send(A, 'Из офлайна');
    await waitStatus(A, 'Из офлайна', /^pending$/);
    await A.setOffline(false);
    await waitStatus(A, 'Из офлайна', /^(sent|delivered|read)$/);
    await B.waitFor(text('Из офлайна', { testId: 'message' }));
  },
};
