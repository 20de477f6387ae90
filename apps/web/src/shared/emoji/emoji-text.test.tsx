import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emojiUrl } from './emoji-pattern.ts';
import { withEmoji } from './emoji-text.tsx';

const drawn = (text: string) => {
  const { container } = render(<p>{withEmoji(text)}</p>);
  return container.firstElementChild as HTMLElement;
};
const images = (p: HTMLElement) => [...p.querySelectorAll('img')].map((img) => img.getAttribute('alt'));

/** The set the build copies to /emoji/ (build/emoji-set.ts). */
const SET = path.dirname(fileURLToPath(import.meta.resolve('@twemoji/svg/1f44d.svg')));
const inSet = (emoji: string) => existsSync(path.join(SET, emojiUrl(emoji).replace('/emoji/', '')));

describe('withEmoji', () => {
  it('draws each emoji of a line as its image, sized, between the text around it', () => {
    const p = drawn('Смотри, какие фото 📷 — договорились 👍!');
    expect(p.textContent).toBe('Смотри, какие фото  — договорились !');
    expect(images(p)).toEqual(['📷', '👍']);
    const img = p.querySelector('img') as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('/emoji/1f4f7.svg');
    expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['20', '20']);
  });

  it('leaves text without emoji as it is: digits, signs and symbols in text presentation', () => {
    for (const text of ['Привет, как дела?', 'в 10:30, #7 и *важно*', '© 2026 Kadr™, ←→ ✓', '']) {
      expect(withEmoji(text)).toBe(text);
    }
  });

  it.each([
    ['❤️', '2764'],
    ['👍🏽', '1f44d-1f3fd'],
    ['🇷🇺', '1f1f7-1f1fa'],
    ['1️⃣', '31-20e3'],
    ['👨‍👩‍👧', '1f468-200d-1f469-200d-1f467'],
    ['🏳️‍🌈', '1f3f3-fe0f-200d-1f308'],
    ['🏴󠁧󠁢󠁳󠁣󠁴󠁿', '1f3f4-e0067-e0062-e0073-e0063-e0074-e007f'],
    ['☝🏻', '261d-1f3fb'],
  ])('takes %s whole, as the set names it (%s)', (emoji, name) => {
    const p = drawn(`a${emoji}b`);
    expect(images(p)).toEqual([emoji]);
    expect(p.querySelector('img')?.getAttribute('src')).toBe(`/emoji/${name}.svg`);
    expect(inSet(emoji)).toBe(true);
  });

  it('finds every emoji of a real chat in the shipped set', () => {
    const chat = '😂🔥🙏😍🥰😭😊🤔👀💯🎉✨🙌👏😅🤣❤️‍🔥🫶🏼🤝🥲🫠🍕☕️🌧️⚽️🚀🎂🐱🌸';
    const found = images(drawn(chat));
    expect(found.join('')).toBe(chat);
    expect(found.filter((emoji) => !inSet(emoji as string))).toEqual([]);
  });

  it('shows the character again when the set lacks the image', () => {
    const p = drawn('новое 🫨');
    fireEvent.error(p.querySelector('img') as HTMLImageElement);
    expect(p.querySelector('img')).toBeNull();
    expect(p.textContent).toBe('новое 🫨');
  });
});
