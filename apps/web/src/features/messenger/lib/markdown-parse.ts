/**
 * A small markdown subset for chat messages: **bold**, *italic* / _italic_, ~~strikethrough~~,
 * `inline code`, ```code blocks```, [links](https://…), bare http(s) links and > quotes.
 * The parser yields plain data; the renderer turns it into React text nodes, so no user text is
 * ever interpreted as HTML. Links survive only with an http(s) or mailto target.
 */
export type Inline =
  | { type: 'text'; text: string }
  | { type: 'bold' | 'italic' | 'strike'; children: Inline[] }
  | { type: 'code'; text: string }
  | { type: 'link'; href: string; children: Inline[] };

export type Block =
  | { type: 'paragraph'; lines: Inline[][] }
  | { type: 'code'; text: string }
  | { type: 'quote'; blocks: Block[] };

const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** The href to render for a link target, or null when it is not an absolute http(s)/mailto URL. */
export function safeHref(target: string): string | null {
  const trimmed = target.trim();
  // Control characters and whitespace inside a scheme are how `java\tscript:` slips through parsers.
  if (
    /\s/.test(trimmed) ||
    Array.from(trimmed).some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)
  )
    return null;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  return SAFE_PROTOCOLS.has(url.protocol) ? url.href : null;
}

const LINK = /^\[([^\]\n]+)\]\(([^()\s]+)\)/;
const BARE_URL = /^https?:\/\/[^\s<>"]+/;
const TRAILING_PUNCTUATION = /[.,;:!?)\]'»]+$/;

interface Delimited {
  marker: string;
  type: 'bold' | 'italic' | 'strike';
}

// Longest markers first so ** is not read as two *.
const DELIMITERS: readonly Delimited[] = [
  { marker: '**', type: 'bold' },
  { marker: '__', type: 'bold' },
  { marker: '~~', type: 'strike' },
  { marker: '*', type: 'italic' },
  { marker: '_', type: 'italic' },
];

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}]/u.test(char);
}

function pushText(out: Inline[], text: string): void {
  if (!text) return;
  const last = out[out.length - 1];
  if (last?.type === 'text') last.text += text;
  else out.push({ type: 'text', text });
}

/** Finds the closing marker for a span opened at `from`; the content must not start or end with a space. */
function findClose(source: string, from: number, marker: string): number {
  let index = source.indexOf(marker, from);
  while (index !== -1) {
    const inner = source.slice(from, index);
    const after = source[index + marker.length];
    // `_` inside words (snake_case) does not close.
    const wordBoundaryOk = marker[0] !== '_' || !isWordChar(after);
    if (inner.length > 0 && inner.trim() === inner && wordBoundaryOk) return index;
    index = source.indexOf(marker, index + 1);
  }
  return -1;
}

export function parseInline(source: string): Inline[] {
  const out: Inline[] = [];
  let i = 0;
  while (i < source.length) {
    const rest = source.slice(i);
    const char = source[i];

    if (char === '`') {
      const close = source.indexOf('`', i + 1);
      if (close > i + 1) {
        out.push({ type: 'code', text: source.slice(i + 1, close) });
        i = close + 1;
        continue;
      }
    }

    if (char === '[') {
      const match = LINK.exec(rest);
      if (match) {
        const href = safeHref(match[2] ?? '');
        if (href) out.push({ type: 'link', href, children: parseInline(match[1] ?? '') });
        else pushText(out, match[0]);
        i += match[0].length;
        continue;
      }
    }

    if ((char === 'h' || char === 'H') && !isWordChar(source[i - 1])) {
      const match = BARE_URL.exec(rest);
      if (match) {
        const url = match[0].replace(TRAILING_PUNCTUATION, '');
        const href = safeHref(url);
        if (href) {
          out.push({ type: 'link', href, children: [{ type: 'text', text: url }] });
          i += url.length;
          continue;
        }
      }
    }

    const delimiter = DELIMITERS.find(
      (d) => rest.startsWith(d.marker) && !(d.marker[0] === '_' && isWordChar(source[i - 1])),
    );
    if (delimiter) {
      const start = i + delimiter.marker.length;
      const close = findClose(source, start, delimiter.marker);
      if (close !== -1) {
        out.push({ type: delimiter.type, children: parseInline(source.slice(start, close)) });
        i = close + delimiter.marker.length;
        continue;
      }
      pushText(out, delimiter.marker);
      i = start;
      continue;
    }

    pushText(out, char ?? '');
    i += 1;
  }
  return out;
}

const FENCE = /^```/;
const QUOTE = /^>\s?/;

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];

  const flushParagraph = () => {
    if (paragraph.length > 0) blocks.push({ type: 'paragraph', lines: paragraph.map(parseInline) });
    paragraph = [];
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (FENCE.test(line)) {
      const end = lines.findIndex((l, j) => j > i && FENCE.test(l));
      if (end !== -1) {
        flushParagraph();
        // Text after the opening fence on the same line is a language hint; it is dropped.
        blocks.push({ type: 'code', text: lines.slice(i + 1, end).join('\n') });
        i = end;
        continue;
      }
    }
    if (QUOTE.test(line)) {
      flushParagraph();
      const quoted: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i] ?? '')) {
        quoted.push((lines[i] ?? '').replace(QUOTE, ''));
        i++;
      }
      i--;
      blocks.push({ type: 'quote', blocks: parseMarkdown(quoted.join('\n')) });
      continue;
    }
    if (line.trim() === '') {
      flushParagraph();
      continue;
    }
    paragraph.push(line);
  }
  flushParagraph();
  return blocks;
}

/** The message as plain text without markers (chat previews, copy). */
export function plainText(blocks: readonly Block[]): string {
  const inline = (nodes: readonly Inline[]): string =>
    nodes.map((n) => (n.type === 'text' || n.type === 'code' ? n.text : inline(n.children))).join('');
  return blocks
    .map((b) => {
      switch (b.type) {
        case 'paragraph':
          return b.lines.map(inline).join('\n');
        case 'code':
          return b.text;
        case 'quote':
          return plainText(b.blocks);
        default: {
          const exhaustive: never = b;
          return exhaustive;
        }
      }
    })
    .join('\n');
}
