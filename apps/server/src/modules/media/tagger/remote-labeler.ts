import { MEDIA_TAG_KEYS, MEDIA_TAGS, type MediaTag } from '@kadr/contract';
import { jpegFrame } from '../processing/image.ts';
import type { Labeler, Labels } from './tagger.ts';

export interface RemoteTaggerConfig {
  /** Base URL of an OpenAI-compatible API, e.g. https://host/v1 (the request goes to `<url>/chat/completions`). */
  url: string;
  model: string;
  apiKey: string | null;
  timeoutMs?: number;
}

const PROMPT = `Опиши медиа для ленты. Ответь только JSON-объектом {"tags": [...], "description": "..."}.
tags — ключи из списка: ${MEDIA_TAG_KEYS.filter((k) => k !== 'for_sleep')
  .map((k) => `${k} (${MEDIA_TAGS[k]})`)
  .join(', ')}.
description — одно короткое предложение по-русски (до 120 символов), подходящее как alt-текст.`;

/**
 * Optional remote labeler: any OpenAI-compatible vision endpoint (AI_TAGGER_URL). It replaces the detector only;
 * the measured signals and the calm score stay local, so `for_sleep` means the same with either provider.
 */
export function remoteLabeler(config: RemoteTaggerConfig, fetchImpl: typeof fetch = fetch): Labeler {
  return {
    provider: 'remote',
    model: config.model,
    async label(frames): Promise<Labels> {
      const images = await Promise.all(
        frames.slice(0, 3).map(async (f) => {
          const jpeg = await jpegFrame(f, 768);
          return {
            type: 'image_url',
            image_url: { url: `data:image/jpeg;base64,${jpeg.toString('base64')}` },
          };
        }),
      );
      const response = await fetchImpl(`${config.url.replace(/\/$/, '')}/chat/completions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: config.model,
          temperature: 0,
          response_format: { type: 'json_object' },
          messages: [{ role: 'user', content: [{ type: 'text', text: PROMPT }, ...images] }],
        }),
        signal: AbortSignal.timeout(config.timeoutMs ?? 60_000),
      });
      if (!response.ok) throw new Error(`remote tagger answered ${response.status}`);
      const body = (await response.json()) as { choices?: { message?: { content?: string } }[] };
      return parseRemoteAnswer(body.choices?.[0]?.message?.content ?? '');
    },
  };
}

/** Keeps only our tag keys and a sane description from the model's text. */
export function parseRemoteAnswer(content: string): Labels {
  const json = /\{[\s\S]*\}/.exec(content)?.[0];
  if (!json) throw new Error('remote tagger gave no JSON');
  const parsed = JSON.parse(json) as { tags?: unknown; description?: unknown };
  const known = new Set<string>(MEDIA_TAG_KEYS);
  const tags = (Array.isArray(parsed.tags) ? parsed.tags : [])
    .filter((t): t is string => typeof t === 'string')
    .map((t) => t.trim().toLowerCase())
    .filter((t): t is MediaTag => known.has(t) && t !== 'for_sleep');
  const description = typeof parsed.description === 'string' ? parsed.description.trim().slice(0, 200) : '';
  const faces = tags.includes('face') ? 1 : 0;
  return { objects: [], faces, tags, ...(description ? { description } : {}) };
}
