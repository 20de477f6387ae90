// `npm run demo:prepare`: makes assets/demo from the Debian packages named in media-sources.ts. It downloads them
// with apt (`apt-get download`, no root needed; the packages are cached in .tools/cache/demo-debs), extracts the
// named files and runs the real media pipeline over them — the same functions an upload goes through: feed,
// screen and thumbnail variants (sharp, in the image process), the story cut with its thumbnail and screen
// variant, the video transcode and poster (ffmpeg), and the local tagger on each demo post — and writes the
// results with a manifest. The demo seeder (modules/demo) stores these
// finished variants as they are, so seeding costs no transcoding. Run it again after changing the pipeline's
// output (the variant sizes, the video encoding) or the demo content; commit assets/demo.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DEMO_GROUPS, DEMO_POSTS, DEMO_USERS } from '../../apps/server/src/modules/demo/content.ts';
import {
  DEMO_ASSETS_DIR,
  type DemoManifest,
  type PreparedMedia,
} from '../../apps/server/src/modules/demo/manifest.ts';
import { GROUP_AVATAR_SIDE } from '../../apps/server/src/modules/groups/service.ts';
import { findFfmpeg, run } from '../../apps/server/src/modules/media/processing/ffmpeg.ts';
import {
  closeImageProcess,
  processPostImage,
  squareWebp,
  storyImage,
  storyScreenSize,
} from '../../apps/server/src/modules/media/processing/image.ts';
import { processVideo } from '../../apps/server/src/modules/media/processing/video.ts';
import { humanLabeler } from '../../apps/server/src/modules/media/tagger/human-labeler.ts';
import { createTagger } from '../../apps/server/src/modules/media/tagger/local-tagger.ts';
import { imageSignals, videoSignals } from '../../apps/server/src/modules/media/tagger/signals.ts';
import { AVATAR_SIDE, THUMBNAIL_SIDE } from '../../apps/server/src/modules/profile/service.ts';
import { DEMO_MEDIA_SOURCES, type DebSource } from './media-sources.ts';

const root = path.resolve(import.meta.dirname, '../..');
const cache = process.env.KADR_DEMO_DEB_CACHE ?? path.join(root, '.tools/cache/demo-debs');
const out = DEMO_ASSETS_DIR;
const bins = findFfmpeg();

function extracted(src: DebSource): string {
  const dir = path.join(cache, `${src.package}_${src.version.replace(/:/g, '%3a')}`);
  if (!fs.existsSync(path.join(dir, '.done'))) {
    fs.mkdirSync(cache, { recursive: true });
    execFileSync('apt-get', ['download', `${src.package}=${src.version}`], { cwd: cache, stdio: 'inherit' });
    const deb = fs.readdirSync(cache).find((f) => f.startsWith(`${src.package}_`) && f.endsWith('.deb'));
    if (!deb) throw new Error(`apt-get download ${src.package} left no .deb`);
    fs.rmSync(dir, { recursive: true, force: true });
    execFileSync('dpkg-deb', ['-x', path.join(cache, deb), dir]);
    fs.writeFileSync(path.join(dir, '.done'), '');
  }
  const file = path.join(dir, src.path);
  if (!fs.existsSync(file)) throw new Error(`${src.package} has no ${src.path}`);
  return file;
}

function write(name: string, data: Buffer): { file: string; bytes: number; sha256: string } {
  fs.writeFileSync(path.join(out, name), data);
  return { file: name, bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') };
}

/** Waits for a helper process to close, at most a few seconds (a timer keeps the loop alive meanwhile). */
const settle = (closing: Promise<unknown>) =>
  Promise.race([closing.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 5000))]);

fs.mkdirSync(out, { recursive: true });
fs.mkdirSync(cache, { recursive: true });
const work = fs.mkdtempSync(path.join(cache, 'work-'));
const media: Record<string, PreparedMedia> = {};
const feeds = new Map<string, Buffer>();
try {
  const records = path.join(cache, 'prepared');
  fs.mkdirSync(records, { recursive: true });
  for (const item of DEMO_MEDIA_SOURCES) {
    const input = extracted(item.source);
    const credit = { ...item.source, what: item.what };
    // An item prepared by an earlier run from the same description is reused (the pipeline is slow on 2 cores).
    const recordFile = path.join(records, `${item.name}.json`);
    const fingerprint = JSON.stringify(item);
    if (fs.existsSync(recordFile)) {
      const record = JSON.parse(fs.readFileSync(recordFile, 'utf8')) as {
        fingerprint: string;
        media: PreparedMedia;
      };
      const files = [
        record.media.feed,
        record.media.thumbnail,
        ...(record.media.poster ? [record.media.poster] : []),
        ...(record.media.screen ? [record.media.screen] : []),
      ];
      // A photo or story prepared before the screen variant existed is made again (a story no larger than
      // 720×1280 has none).
      const screenDue =
        item.kind === 'photo' ||
        (item.kind === 'story' && storyScreenSize(record.media.width, record.media.height) !== null);
      const complete = !screenDue || record.media.screen !== undefined;
      if (
        record.fingerprint === fingerprint &&
        complete &&
        files.every((f) => fs.existsSync(path.join(out, f.file)))
      ) {
        media[item.name] = record.media;
        if (item.kind === 'photo')
          feeds.set(item.name, fs.readFileSync(path.join(out, record.media.feed.file)));
        console.log(`  ${item.name}: kept`);
        continue;
      }
    }
    if (item.kind === 'photo') {
      const img = await processPostImage(input);
      feeds.set(item.name, img.feed);
      media[item.name] = {
        kind: 'photo',
        width: img.width,
        height: img.height,
        feed: write(`${item.name}.webp`, img.feed),
        thumbnail: write(`${item.name}.thumb.webp`, img.thumbnail),
        screen: write(`${item.name}.screen.webp`, img.screen),
        credit,
      };
    } else if (item.kind === 'story') {
      const img = await storyImage(input);
      media[item.name] = {
        kind: 'story',
        width: img.width,
        height: img.height,
        feed: write(`${item.name}.webp`, img.image),
        thumbnail: write(`${item.name}.thumb.webp`, img.thumbnail),
        ...(img.screen ? { screen: write(`${item.name}.screen.webp`, img.screen) } : {}),
        credit,
      };
    } else {
      // The clip: the kept part of the footage, with a real recording under it when the footage has no sound.
      const clip = path.join(work, `${item.name}.mkv`);
      const args = [
        '-hide_banner',
        '-v',
        'error',
        '-y',
        '-ss',
        String(item.start),
        '-t',
        String(item.seconds),
        '-i',
        input,
      ];
      if (item.audio) {
        args.push('-ss', String(item.audio.start), '-t', String(item.seconds), '-i', extracted(item.audio));
        args.push(
          '-map',
          '0:v:0',
          '-map',
          '1:a:0',
          '-af',
          `afade=in:d=0.5,afade=out:st=${item.seconds - 0.7}:d=0.7`,
        );
      } else args.push('-map', '0:v:0', '-map', '0:a:0');
      args.push(
        '-vf',
        'scale=trunc(iw/2)*2:trunc(ih/2)*2',
        '-c:v',
        'libx264',
        '-crf',
        '16',
        '-preset',
        'fast',
        '-c:a',
        'flac',
        '-shortest',
        clip,
      );
      await run(bins.ffmpeg, args, { timeoutMs: 10 * 60_000 });
      const dir = path.join(work, item.name);
      fs.mkdirSync(dir);
      const video = await processVideo(bins, clip, dir);
      media[item.name] = {
        kind: 'video',
        width: video.width,
        height: video.height,
        duration: video.duration,
        hasAudio: video.hasAudio,
        feed: write(`${item.name}.mp4`, fs.readFileSync(video.file)),
        poster: write(`${item.name}.poster.webp`, video.poster),
        thumbnail: write(`${item.name}.thumb.webp`, video.thumbnail),
        credit: { ...credit, ...(item.audio ? { audio: item.audio } : {}) },
      };
    }
    fs.writeFileSync(recordFile, JSON.stringify({ fingerprint, media: media[item.name] }));
    console.log(`  ${item.name}: ${media[item.name]?.width}x${media[item.name]?.height}`);
  }

  // Avatars: the square variants the avatar routes make (a person's two sides; a group's one), from feed variants.
  const avatarOf = [...DEMO_USERS.map((u) => u.avatar), ...DEMO_GROUPS.map((g) => g.avatar)];
  for (const name of new Set(avatarOf)) {
    const feed = feeds.get(name);
    if (!feed) throw new Error(`avatar ${name} is not a prepared photo`);
    const side = Math.max(AVATAR_SIDE, GROUP_AVATAR_SIDE);
    const [avatar, thumbnail] = await Promise.all([squareWebp(feed, side), squareWebp(feed, THUMBNAIL_SIDE)]);
    media[`avatar-${name}`] = {
      kind: 'avatar',
      width: side,
      height: side,
      feed: write(`avatar-${name}.webp`, avatar),
      thumbnail: write(`avatar-${name}.thumb.webp`, thumbnail),
      credit: media[name]?.credit ?? {},
    };
  }

  // The tagger looks at each post as the post job would: a video's keyframes and sound, or the post's photos.
  const tagger = createTagger(humanLabeler());
  const posts: DemoManifest['posts'] = {};
  try {
    for (const post of DEMO_POSTS) {
      const first = media[post.media[0] ?? ''];
      if (!first) throw new Error(`post «${post.caption}» names unknown media ${post.media[0]}`);
      const tagFile = path.join(
        records,
        `tags-${createHash('sha256').update(JSON.stringify(post)).digest('hex').slice(0, 16)}.json`,
      );
      const files = post.media.map((m) => media[m]?.feed.sha256).join(',');
      const kept = fs.existsSync(tagFile)
        ? (JSON.parse(fs.readFileSync(tagFile, 'utf8')) as {
            files: string;
            tagged: DemoManifest['posts'][string];
          })
        : null;
      if (kept?.files === files) {
        posts[post.caption] = kept.tagged;
        continue;
      }
      const analysed =
        first.kind === 'video'
          ? await videoSignals(bins, path.join(out, first.feed.file), first.duration ?? 0, {
              hasAudio: first.hasAudio,
            })
          : await imageSignals(post.media.map((m) => feeds.get(m) as Buffer));
      const tagged = await tagger.tag({ ...analysed, caption: post.caption });
      posts[post.caption] = tagged;
      fs.writeFileSync(tagFile, JSON.stringify({ files, tagged }));
      console.log(`  «${post.caption.slice(0, 40)}…» [${tagged.tags.join(', ')}] ${tagged.description}`);
    }
  } finally {
    await settle(tagger.close());
  }
  const manifest: DemoManifest = { version: 1, media, posts };
  fs.writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
  const keep = new Set([
    'manifest.json',
    ...Object.values(media).flatMap((m) => [
      m.feed.file,
      m.thumbnail.file,
      ...(m.poster ? [m.poster.file] : []),
      ...(m.screen ? [m.screen.file] : []),
    ]),
  ]);
  for (const f of fs.readdirSync(out)) if (!keep.has(f)) fs.rmSync(path.join(out, f));
  const total = [...keep].reduce((sum, f) => sum + fs.statSync(path.join(out, f)).size, 0);
  console.log(`assets/demo: ${keep.size} files, ${(total / 1024 / 1024).toFixed(1)} MiB`);
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  fs.rmSync(work, { recursive: true, force: true });
  await settle(closeImageProcess());
}
