/**
 * A small markdown subset for chat messages: **bold**, *italic* / _italic_, ~~strikethrough~~,
 * `inline code`, ```code blocks```, [links](https://…), bare http(s) links and > quotes.
 * The parser yields plain data; the renderer turns it into React text nodes, so no user text is
 * ever interpreted as HTML. Links survive only with an http(s) or mailto target.
 *
 * Hostile input (4 KB of `_a ` opens thousands of spans that never close) would make the look-ahead
 * quadratic, so every look-ahead is paid from a budget linear in the input: once it is spent, the
 * remaining markers stay plain text. Ordinary messages never come near it.
 */
export type Inline =
  | { type: 'text'; text: string }
  | { type: 'bold' | 'italic' | 'strike'; children: Inline[] }
  | { type: 'code'; text: string }
  | { type: 'link'; href: string; children: Inline[] }
  /** An in-app link: `@username` → the profile; a channel link (…/messenger/channel/<slug>) → its preview. */
  | { type: 'mention'; kind: 'user' | 'channel'; path: string; text: string };

export type Block =
  | { type: 'paragraph'; lines: Inline[][] }
  | { type: 'code'; text: string }
  | { type: 'quote'; blocks: Block[] };

const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);
const MAX_URL_LENGTH = 2048;

/** The href to render for a link target, or null when it is not an absolute http(s)/mailto URL. */
export function safeHref(target: string): string | null {
  const trimmed = target.trim();
  // URL parsing of a huge invalid target is slow; nobody links 2 KB addresses in a chat.
  if (trimmed.length > MAX_URL_LENGTH) return null;
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

/** `@username` (the username rule: 3–32 of a-z, 0-9, _), not inside an e-mail address or a word. */
const MENTION = /@([a-z0-9_]{3,32})(?![a-z0-9_])/y;
/** A channel mention link: a path of 5 or more letters, digits, `_` or `-` (spec §5). */
const CHANNEL_PATH = /^\/messenger\/channel\/([A-Za-z0-9_-]{5,})\/?$/;

/** The in-app channel path of an http(s) link to this app's channel preview, or null. */
export function channelPath(href: string, origin: string | null): string | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (origin === null || url.origin !== origin || url.search || url.hash) return null;
  const slug = CHANNEL_PATH.exec(url.pathname)?.[1];
  return slug ? `/messenger/channel/${slug}` : null;
}

const currentOrigin = () => (typeof window === 'undefined' ? null : window.location.origin);

// Sticky (matched at lastIndex), so no copy of the rest of the message is made per attempt.
const LINK = /\[([^\]\n]+)\]\(([^()\s]+)\)/y;
const BARE_URL = /https?:\/\/[^\s<>"]+/y;

const matchAt = (pattern: RegExp, source: string, at: number) => {
  pattern.lastIndex = at;
  return pattern.exec(source);
};
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

/** Characters of look-ahead a parse may spend, shared by every nested call on the same message. */
export interface Budget {
  left: number;
}

/** Look-ahead allowed per input character (plus a constant), so parsing stays linear. */
export const BUDGET_PER_CHAR = 8;
export const MAX_QUOTE_DEPTH = 8;

export const budgetFor = (source: string): Budget => ({ left: source.length * BUDGET_PER_CHAR + 256 });

/** Pays `cost` characters; false (and nothing paid) when the budget cannot cover it. */
function spend(budget: Budget, cost: number): boolean {
  if (budget.left < cost) {
    budget.left = 0;
    return false;
  }
  budget.left -= cost;
  return true;
}

/** Finds the closing marker for a span opened at `from`; the content must not start or end with a space. */
function findClose(source: string, from: number, marker: string, budget: Budget): number {
  // The span may not be empty nor start with a space.
  if (from >= source.length || /\s/.test(source[from] ?? '')) return -1;
  let scanned = from;
  let index = source.indexOf(marker, from);
  while (index !== -1) {
    if (!spend(budget, index - scanned + 1)) return -1;
    scanned = index;
    const after = source[index + marker.length];
    // `_` inside words (snake_case) does not close; nor does a marker right after a space.
    const wordBoundaryOk = marker[0] !== '_' || !isWordChar(after);
    if (index > from && !/\s/.test(source[index - 1] ?? '') && wordBoundaryOk) return index;
    index = source.indexOf(marker, index + 1);
  }
  return -1;
}

/** indexOf's answer when there is none: nothing later can match either, so it is never searched again. */
const NONE = -1;

export function parseInline(source: string, budget: Budget = budgetFor(source)): Inline[] {
  const out: Inline[] = [];
  let i = 0;
  // Next `]` and next backtick at or after i, found once and reused, so failed look-aheads cost nothing.
  let nextBracket = 0;
  let nextTick = 0;
  while (i < source.length) {
    const char = source[i];
    if (budget.left === 0) {
      pushText(out, source.slice(i));
      break;
    }

    if (char === '`') {
      if (nextTick !== NONE && nextTick <= i) nextTick = source.indexOf('`', i + 1);
      const close = nextTick;
      if (close > i + 1) {
        out.push({ type: 'code', text: source.slice(i + 1, close) });
        i = close + 1;
        continue;
      }
    }

    if (char === '[') {
      if (nextBracket !== NONE && nextBracket <= i) nextBracket = source.indexOf(']', i + 1);
      const match = nextBracket !== NONE && spend(budget, nextBracket - i) ? matchAt(LINK, source, i) : null;
      if (match) {
        const href = safeHref(match[2] ?? '');
        if (href) out.push({ type: 'link', href, children: parseInline(match[1] ?? '', budget) });
        else pushText(out, match[0]);
        i += match[0].length;
        continue;
      }
    }

    if ((char === 'h' || char === 'H') && !isWordChar(source[i - 1])) {
      const looksLikeUrl = source.startsWith('http://', i) || source.startsWith('https://', i);
      const match = looksLikeUrl ? matchAt(BARE_URL, source, i) : null;
      if (match && spend(budget, match[0].length)) {
        const url = match[0].replace(TRAILING_PUNCTUATION, '');
        const href = safeHref(url);
        const channel = href ? channelPath(href, currentOrigin()) : null;
        if (channel) {
          out.push({ type: 'mention', kind: 'channel', path: channel, text: url });
          i += url.length;
          continue;
        }
        if (href) {
          out.push({ type: 'link', href, children: [{ type: 'text', text: url }] });
          i += url.length;
          continue;
        }
      }
    }

    if (char === '@' && !isWordChar(source[i - 1]) && source[i - 1] !== '.') {
      const match = matchAt(MENTION, source, i);
      if (match) {
        out.push({ type: 'mention', kind: 'user', path: `/${match[1]}`, text: match[0] });
        i += match[0].length;
        continue;
      }
    }

    const delimiter = DELIMITERS.find(
      (d) => source.startsWith(d.marker, i) && !(d.marker[0] === '_' && isWordChar(source[i - 1])),
    );
    if (delimiter) {
      const start = i + delimiter.marker.length;
      const close = findClose(source, start, delimiter.marker, budget);
      if (close !== -1) {
        out.push({ type: delimiter.type, children: parseInline(source.slice(start, close), budget) });
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

export function parseMarkdown(source: string, budget: Budget = budgetFor(source), depth = 0): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];

  const flushParagraph = () => {
    if (paragraph.length > 0)
      blocks.push({ type: 'paragraph', lines: paragraph.map((line) => parseInline(line, budget)) });
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
    if (QUOTE.test(line) && depth < MAX_QUOTE_DEPTH) {
      flushParagraph();
      const quoted: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i] ?? '')) {
        quoted.push((lines[i] ?? '').replace(QUOTE, ''));
        i++;
      }
      i--;
      blocks.push({ type: 'quote', blocks: parseMarkdown(quoted.join('\n'), budget, depth + 1) });
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
    nodes
      .map((n) =>
        n.type === 'text' || n.type === 'code' || n.type === 'mention' ? n.text : inline(n.children),
      )
      .join('');
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
