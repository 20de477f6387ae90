import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ErrorText, normalizeText, type StoryText, StoryTextLimits } from '@kadr/contract';
import { errors } from '../../lib/errors.ts';

/*
 * Texts on a video story are burned into its pixels here, as a photo story's texts are burned into its picture
 * by the editor (Konva exports the picture with them): either way the stored file is the story, every viewer
 * (the app, a shared link, a post card) shows the same thing and nothing else has to draw it. A browser cannot
 * re-encode a video with its texts, so for video the server draws them with ffmpeg's `drawtext`.
 */

/** Debian's fonts-dejavu-core (installed by the Dockerfile): a bold sans with Cyrillic, like the editor's text. */
const FONT_CANDIDATES = [
  process.env.STORY_FONT_FILE,
  '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf',
];

const COLOR = /^#[0-9a-f]{6}$/i;
/** Where a dragged text may still start: a frame's width to either side (partly visible texts are fine). */
const COORD_LIMIT = StoryTextLimits.referenceWidth * 2;

const invalid = () => errors.validation({ texts: ErrorText.validationFailed });

function parseOne(value: unknown): StoryText {
  if (typeof value !== 'object' || value === null) throw invalid();
  const { text, x, y, size, color } = value as Record<string, unknown>;
  if (typeof text !== 'string' || typeof color !== 'string' || !COLOR.test(color)) throw invalid();
  // One line everyone who watches sees, like a name: no controls, bidi overrides or invisible-only text
  // (the one normaliser; a JSON field inside a multipart body never passes the request hook).
  const normalized = normalizeText(text, 'name');
  if (!normalized.ok) throw invalid();
  const trimmed = normalized.value;
  if (trimmed === '' || [...trimmed].length > StoryTextLimits.maxLength) throw invalid();
  for (const n of [x, y, size])
    if (typeof n !== 'number' || !Number.isFinite(n) || Math.abs(n) > COORD_LIMIT) throw invalid();
  if ((size as number) < StoryTextLimits.minSize || (size as number) > StoryTextLimits.maxSize)
    throw invalid();
  return { text: trimmed, x: x as number, y: y as number, size: size as number, color: color.toLowerCase() };
}

/** The upload's `texts` field: absent or blank → none; anything but a valid `StoryText[]` → 400. */
export function parseStoryTexts(raw: string | undefined): StoryText[] {
  if (raw === undefined || raw.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalid();
  }
  if (!Array.isArray(value) || value.length > StoryTextLimits.maxTexts) throw invalid();
  return value.map(parseOne);
}

export function storyFontFile(): string {
  const found = FONT_CANDIDATES.find((file) => file && existsSync(file));
  if (!found) throw new Error('no font for story texts: install fonts-dejavu-core or set STORY_FONT_FILE');
  return found;
}

/**
 * A path as a filter option value. ffmpeg unescapes a filtergraph twice (graph, then option), so instead of
 * escaping, a path with a character either level gives meaning to is refused (ours are DATA_DIR and /usr/share).
 */
function filterPath(file: string): string {
  if (/[\\':;,=[\]\s]/.test(file)) throw new Error(`path unusable in an ffmpeg filter: ${file}`);
  return file;
}

/**
 * The `drawtext` filters drawing `texts` on a frame `width` pixels wide. Each text is read from its own file
 * in `dir` with expansion off, so nothing the author typed is parsed as filter syntax or `%{…}` expansions.
 */
export async function drawTextFilters(
  texts: StoryText[],
  width: number,
  dir: string,
): Promise<string | null> {
  if (texts.length === 0) return null;
  const font = filterPath(storyFontFile());
  const scale = width / StoryTextLimits.referenceWidth;
  const shadow = Math.max(1, Math.round(2 * scale));
  const filters: string[] = [];
  for (const [i, t] of texts.entries()) {
    const file = path.join(dir, `text-${i}.txt`);
    await fs.writeFile(file, t.text, 'utf8');
    filters.push(
      [
        `drawtext=fontfile=${font}`,
        `textfile=${filterPath(file)}`,
        'expansion=none',
        `fontsize=${Math.round(t.size * scale)}`,
        `fontcolor=0x${t.color.slice(1)}`,
        `x=${Math.round(t.x * scale)}`,
        `y=${Math.round(t.y * scale)}`,
        'shadowcolor=black@0.5',
        `shadowx=${shadow}`,
        `shadowy=${shadow}`,
      ].join(':'),
    );
  }
  return filters.join(',');
}
