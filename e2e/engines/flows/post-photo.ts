import { MEDIA_PROCESSING_MS, signIn, uniqueUsername } from '../api.ts';
import type { Flow } from '../flow.ts';
import { check } from '../flow.ts';
import { label, role } from '../target.ts';

/** A photo post through the «Создать» sheet and the upload modal, processed and kept by the server. */
export const postPhoto: Flow = {
  id: 'post-photo',
  name: 'Публикация фото',
  async run({ engine, api, media, newPage, shot }) {
    const me = await api.register(uniqueUsername(`${engine.slice(0, 2)}post`), 'Фотограф');
    const photo = await media.image(`post-${engine}.jpg`, 40, 'jpg');
    const caption = `Фото из ${engine}`;
    const page = await newPage();
    await signIn(page, me, '/home');
    await page.clickUntil(role('button', 'Создать'), role('dialog', 'Создать'));
    await page.click(role('button', 'Публикация', role('dialog', 'Создать')));
    const modal = role('dialog', 'Новая публикация');
    await page.upload(label('Видео или изображения', modal), photo);
    await page.fill(label(/^Подпись/, modal), caption);
    await shot(page, 'modal');
    await page.click(role('button', 'Опубликовать', modal));
    await page.waitForText('Готово! Публикация опубликована', MEDIA_PROCESSING_MS);
    await page.waitGone(modal, 10_000);
    const { posts } = await api.posts(me);
    check(
      posts.some((p) => p.caption === caption && p.media_type === 'photo' && p.status === 'done'),
      `the server has no processed photo «${caption}»: ${JSON.stringify(posts)}`,
    );
  },
};
