import { apiUrl } from '@kadr/contract/browser';
import { messengerEndpoints } from '@kadr/contract/messenger/endpoints';
import { signIn, uniqueUsername } from '../api.ts';
import type { Flow } from '../flow.ts';
import { check } from '../flow.ts';
import { label, role, testId } from '../target.ts';

/** A follower opens an author's story from the strip, replies, and the reply reaches the author's chats. */
export const stories: Flow = {
  id: 'stories',
  name: 'Истории: просмотр, ответ',
  async run({ engine, api, media, newPage, shot, once }) {
    const author = await once('story-author', async () => {
      const session = await api.register(uniqueUsername('storyauthor'), 'Автор Историй');
      const witness = await api.register(uniqueUsername('storywitness'), 'Свидетель');
      await api.follow(witness, session);
      await api.story(session, await media.image('engines-story.jpg', 300, 'jpg'), witness);
      return session;
    });
    const viewer = await api.register(uniqueUsername(`${engine.slice(0, 2)}story`), 'Зритель Историй');
    await api.follow(viewer, author);
    const page = await newPage();
    await signIn(page, viewer, '/home');
    const ring = role('button', /^Истории Автор Историй/);
    await page.click(ring);
    await page.waitFor(testId('story-viewer'));
    await page.until(
      'the story shown',
      async () => Number(await page.attribute(testId('story-viewer'), 'data-story-id')) > 0,
    );
    await shot(page, 'viewer');

    const reply = `Ответ из ${engine}`;
    await page.fill(label('Ответить...'), reply);
    await page.click(role('button', 'Отправить', testId('story-viewer')));
    await page.waitForText('Ответ отправлен');
    await page.press('Escape');
    await page.waitGone(testId('story-viewer'));
    // Seen: the ring no longer promises something new.
    await page.waitForAttribute(ring, 'data-unviewed', 'false');

    const { chats } = await api.request<{ chats: { user_id: number | null }[] }>(
      'GET',
      apiUrl(messengerEndpoints.chats),
      author,
    );
    check(
      chats.some((c) => c.user_id === viewer.user.id),
      `the author has no chat with the viewer after the reply`,
    );
  },
};
