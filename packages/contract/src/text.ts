/**
 * Text that means what it shows: the one normaliser every piece of user text passes on its way in (the
 * server runs it over every JSON body before validation and over every socket event's payload; multipart
 * text fields call `normalizeText`). Plain functions, no schema, so the browser may use them too.
 *
 * - Everywhere: C0 and C1 control characters are refused (multi-line text keeps \n and \t; \r\n and a lone
 *   \r become \n), bidi embeddings and overrides (U+202A–U+202E) are removed, and combining marks are capped
 *   at MAX_COMBINING_MARKS per character.
 * - Names (display names, usernames, group and channel names, titles): also bidi isolates and marks and
 *   zero-width characters are removed, whitespace collapsed, and a name with nothing visible left is refused.
 * - Secrets (passwords) are left exactly as typed.
 */

export type TextKind = 'text' | 'name' | 'secret';

/** Combining marks kept on one character; more (“zalgo”) are dropped. */
export const MAX_COMBINING_MARKS = 4;

/** Body fields whose text is a name (shown in lists, headers, mentions). */
const NAME_FIELDS = new Set(['name', 'username', 'display_name', 'title', 'sender_name']);

/** Which kind a JSON field's text is, by the field's name. */
export function textKindOf(field: string): TextKind {
  if (/password/i.test(field)) return 'secret';
  return NAME_FIELDS.has(field) ? 'name' : 'text';
}

// C0 except \t \n \r, DEL and C1.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose.
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u;
const NEWLINES = /[\t\n\r]/u;
const BIDI_OVERRIDES = /[\u202A-\u202E]/gu;
// Bidi isolates and marks, and characters of no width: gone from names.
const NAME_INVISIBLES =
  /[\u061C\u200B\u200E\u200F\u2060-\u2064\u2066-\u2069\u206A-\u206F\uFEFF\u180E\u00AD]|\u034F/gu;
// A zero-width joiner or non-joiner survives only between two pictographs (emoji sequences).
const LONE_JOINERS =
  /(?<!\p{Extended_Pictographic}\uFE0F?)[\u200C\u200D]|[\u200C\u200D](?!\p{Extended_Pictographic})/gu;
// Characters that render as nothing (Hangul fillers, braille blank, spaces of every width, marks, …).
const BLANKS =
  /[\s\u115F\u1160\u17B4\u17B5\u2800\u3164\uFFA0\u2000-\u200D\u202F\u205F\u3000\u{E0000}-\u{E007F}\p{M}]/gu;
const MARKS_RUN = /\p{M}{5,}/gu;

export type NormalizedText = { ok: true; value: string } | { ok: false; reason: 'control' | 'invisible' };

/** Normalises one piece of user text of the given kind, or says why it is refused. */
export function normalizeText(raw: string, kind: TextKind): NormalizedText {
  if (kind === 'secret') return { ok: true, value: raw };
  if (CONTROLS.test(raw)) return { ok: false, reason: 'control' };
  let value = raw.replace(BIDI_OVERRIDES, '');
  value = value.replace(MARKS_RUN, (run) => [...run].slice(0, MAX_COMBINING_MARKS).join(''));
  if (kind === 'text') return { ok: true, value: value.replace(/\r\n?/g, '\n') };
  if (NEWLINES.test(value)) value = value.replace(/[\t\n\r]+/g, ' ');
  value = value.replace(NAME_INVISIBLES, '').replace(LONE_JOINERS, '').replace(/\s+/gu, ' ').trim();
  // A blank name is the schema's to refuse (required, min length); one that only looks empty is ours.
  if (raw.trim() !== '' && value.replace(BLANKS, '') === '') return { ok: false, reason: 'invisible' };
  return { ok: true, value };
}

/** A field whose text was refused: its path (`a.b.0`) and why. */
export interface TextProblem {
  field: string;
  reason: 'control' | 'invisible';
}

/**
 * Normalises every string inside a JSON value in place (objects and arrays, to a bounded depth), each by
 * the kind its field name says; answers the fields refused. A bare string is text.
 */
export function normalizeInput(
  input: unknown,
  field = '',
  depth = 0,
): { value: unknown; problems: TextProblem[] } {
  const problems: TextProblem[] = [];
  const visit = (value: unknown, path: string, key: string, level: number): unknown => {
    if (typeof value === 'string') {
      const result = normalizeText(value, textKindOf(key));
      if (!result.ok) {
        problems.push({ field: path, reason: result.reason });
        return value;
      }
      return result.value;
    }
    if (level > 8 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i += 1)
        value[i] = visit(value[i], path ? `${path}.${i}` : String(i), key, level + 1);
      return value;
    }
    const record = value as Record<string, unknown>;
    for (const k of Object.keys(record))
      record[k] = visit(record[k], path ? `${path}.${k}` : k, k, level + 1);
    return value;
  };
  const value = visit(input, field, field, depth);
  return { value, problems };
}
