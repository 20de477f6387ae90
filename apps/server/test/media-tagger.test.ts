import fs from 'node:fs';
import path from 'node:path';
import { MEDIA_TAG_KEYS } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFfmpeg } from '../src/modules/media/processing/ffmpeg.ts';
import { humanLabeler } from '../src/modules/media/tagger/human-labeler.ts';
import { createTagger } from '../src/modules/media/tagger/local-tagger.ts';
import { parseRemoteAnswer } from '../src/modules/media/tagger/remote-labeler.ts';
import { imageSignals, videoSignals } from '../src/modules/media/tagger/signals.ts';
import type { Tagger } from '../src/modules/media/tagger/tagger.ts';
import { EVAL_DIR } from './fixtures/eval-photos/evaluate.ts';
import { type Fixtures, makeFixtures } from './media-helpers.ts';

let fx: Fixtures;
let tagger: Tagger;
const bins = findFfmpeg();

beforeAll(async () => {
  fx = await makeFixtures();
  tagger = createTagger(humanLabeler());
}, 120_000);
afterAll(async () => {
  await tagger?.close();
});

describe('local tagger on the generated demo media', () => {
  it('a night image is for_sleep, with a Russian description', async () => {
    const r = await tagger.tag({ ...(await imageSignals([fx.night])), caption: '' });
    expect(r.tags).toContain('for_sleep');
    expect(r.tags).toContain('night');
    expect(r.forSleep).toBe(true);
    expect(r.description).toMatch(/^Тёмный кадр/);
    expect(r.provider).toBe('local');
    expect(r.model).toMatch(/^human-\d+\.\d+\.\d+\//);
  }, 60_000);

  it('a photo of a person gets the person tag (a real photograph: drawn figures proved nothing)', async () => {
    const photo = fs.readFileSync(path.join(EVAL_DIR, 'grace_hopper.jpg'));
    const r = await tagger.tag({ ...(await imageSignals([photo])), caption: '' });
    expect(r.tags).toContain('person');
    expect(r.tags).not.toContain('for_sleep');
    expect(r.objects[0]).toMatchObject({ label: 'person', name: 'человек', count: 1 });
    expect(r.description).toMatch(/^Человек/);
  }, 60_000);

  it('a bright daytime image is not for_sleep; caption hashtags map to tags', async () => {
    const r = await tagger.tag({ ...(await imageSignals([fx.bright])), caption: 'Прогулка #котики #Спорт' });
    expect(r.forSleep).toBe(false);
    expect(r.tags).toEqual(expect.arrayContaining(['cats', 'sport']));
    expect(r.tags.every((t) => (MEDIA_TAG_KEYS as string[]).includes(t))).toBe(true);
  }, 60_000);

  it('a dark, still, quiet video is for_sleep; the lively loud test pattern is not', async () => {
    const dark = path.join(fx.dir, 'd.mp4');
    const lively = path.join(fx.dir, 'v.mp4');
    const calm = await tagger.tag({ ...(await videoSignals(bins, dark, 3)), caption: '' });
    expect(calm.forSleep).toBe(true);
    expect(calm.tags).toContain('quiet');
    const busy = await tagger.tag({ ...(await videoSignals(bins, lively, 2)), caption: '' });
    expect(busy.forSleep).toBe(false);
    expect(busy.calmScore).toBeLessThan(calm.calmScore);
  }, 60_000);
});

describe('remote answers are reduced to our tag list', () => {
  it('keeps known tags and the description, drops the rest', () => {
    const labels = parseRemoteAnswer(
      '```json\n{"tags":["Cats","for_sleep","unicorn"],"description":"Кошка спит."}\n```',
    );
    expect(labels.tags).toEqual(['cats']);
    expect(labels.description).toBe('Кошка спит.');
  });
});
