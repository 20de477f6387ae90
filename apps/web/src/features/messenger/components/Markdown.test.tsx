import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown, plainText, safeHref } from '../lib/markdown-parse.ts';
import { Markdown } from './Markdown.tsx';

describe('markdown sanitizing', () => {
  it('renders HTML in a message as inert text', () => {
    const source = 'hi <img src=x onerror=alert(1)> <script>alert(2)</script>';
    const { container } = render(<Markdown source={source} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect(container.textContent).toBe(source);
  });

  it('keeps javascript:, data: and obfuscated links as plain text', () => {
    const cases = [
      '[click](javascript:alert(1))',
      '[x](JavaScript:alert(1))',
      '[x](data:text/html,hi)',
      '[x](vbscript:msgbox)',
      '[x](/relative/path)',
    ];
    for (const source of cases) {
      const { container, unmount } = render(<Markdown source={source} />);
      expect(container.querySelector('a')).toBeNull();
      expect(container.textContent).toBe(source);
      unmount();
    }
    expect(safeHref('java\tscript:alert(1)')).toBeNull();
    expect(safeHref('javascript:alert(1)')).toBeNull();
  });

  it('renders only http(s) and mailto links, opening safely in a new tab', () => {
    const { container } = render(
      <Markdown source="[сайт](https://example.com/a?b=1) и mail [me](mailto:a@b.c) и http://x.org/p." />,
    );
    const links = Array.from(container.querySelectorAll('a'));
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      'https://example.com/a?b=1',
      'mailto:a@b.c',
      'http://x.org/p',
    ]);
    expect(links[0]).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(links[0]).toHaveTextContent('сайт');
    expect(container.textContent).toContain('http://x.org/p.');
  });
});

describe('markdown formatting', () => {
  it('draws emoji as images in text and formatting, never inside code', () => {
    const { container } = render(<Markdown source={'Готово 👍 **ура 🎉** `🙂`'} />);
    expect([...container.querySelectorAll('img')].map((img) => img.getAttribute('src'))).toEqual([
      '/emoji/1f44d.svg',
      '/emoji/1f389.svg',
    ]);
    expect(container.querySelector('strong img')).toHaveAttribute('alt', '🎉');
    expect(container.querySelector('code')).toHaveTextContent('🙂');
  });

  it('parses bold, italic, strikethrough and inline code', () => {
    const { container } = render(<Markdown source="**жирный** *курсив* _тоже_ ~~зачёркнут~~ `a*b*c`" />);
    expect(container.querySelector('strong')).toHaveTextContent('жирный');
    expect(Array.from(container.querySelectorAll('em')).map((e) => e.textContent)).toEqual([
      'курсив',
      'тоже',
    ]);
    expect(container.querySelector('s')).toHaveTextContent('зачёркнут');
    expect(container.querySelector('code')).toHaveTextContent('a*b*c');
  });

  it('nests spans and leaves unmatched markers and snake_case alone', () => {
    expect(parseInline('**a *b* c**')).toEqual([
      {
        type: 'bold',
        children: [
          { type: 'text', text: 'a ' },
          { type: 'italic', children: [{ type: 'text', text: 'b' }] },
          { type: 'text', text: ' c' },
        ],
      },
    ]);
    expect(parseInline('2 * 3 = 6, snake_case_name, **open')).toEqual([
      { type: 'text', text: '2 * 3 = 6, snake_case_name, **open' },
    ]);
  });

  it('parses code blocks verbatim and quotes, keeping line breaks', () => {
    const blocks = parseMarkdown('> цитата\n> вторая\nтекст\nстрока\n```\n**не жирный** <b>\n```');
    expect(blocks.map((b) => b.type)).toEqual(['quote', 'paragraph', 'code']);
    const { container } = render(<Markdown source={'> цитата\n```\n**x** <b>\n```'} />);
    expect(container.querySelector('blockquote')).toHaveTextContent('цитата');
    expect(container.querySelector('pre')).toHaveTextContent('**x** <b>');
    expect(container.querySelector('pre b')).toBeNull();
    expect(plainText(parseMarkdown('**a** `b`\n> c'))).toBe('a b\nc');
  });
});

describe('mentions', () => {
  it('@username becomes a link to the profile; e-mail addresses and hostile names stay text', () => {
    const { container } = render(
      <Markdown source={'привет @anna_1 и a@bob.ru, @<img src=x onerror=alert(1)> @ab'} />,
    );
    const links = [...container.querySelectorAll('a')];
    expect(links.map((a) => [a.getAttribute('href'), a.textContent, a.dataset.mention])).toEqual([
      ['/anna_1', '@anna_1', 'user'],
    ]);
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toContain('@<img src=x onerror=alert(1)>');
  });

  it('a link to this app’s channel preview (slug of 5+ letters, digits, _ or -) opens in the app', () => {
    const origin = window.location.origin;
    const { container } = render(
      <Markdown
        source={`канал ${origin}/messenger/channel/news_ru-24 и ${origin}/messenger/channel/abc и https://evil.example/messenger/channel/news_ru-24`}
      />,
    );
    const links = [...container.querySelectorAll('a')];
    expect(links.map((a) => [a.getAttribute('href'), a.dataset.mention ?? null])).toEqual([
      ['/messenger/channel/news_ru-24', 'channel'],
      [`${origin}/messenger/channel/abc`, null],
      ['https://evil.example/messenger/channel/news_ru-24', null],
    ]);
    expect(links[0]?.getAttribute('target')).toBeNull();
  });
});
