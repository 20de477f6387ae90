import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../apps/server/src/config.ts';
import { brightImage, nightImage } from '../apps/server/src/modules/media/demo/generate.ts';
import { findFfmpeg } from '../apps/server/src/modules/media/processing/ffmpeg.ts';
import { s3Storage } from '../apps/server/src/storage/s3.ts';
import { tempDir } from '../apps/server/test/helpers.ts';
import { startTestBucket } from '../apps/server/test/minio.ts';
import { load, row, startTarget, type Target } from './lib.ts';

const POSTS = 30;
const MB = 1024 * 1024;
/** The seeding alone is 30 posts per target, the hourly per-user default: the video after it would be a 429. */
const ENV = { RATE_LIMITS: 'upload.post=1000/1h' };
/** The noise video comes out a little over 200 MiB, the default cap: the cap is raised so it is accepted. */
const VIDEO_ENV = { ...ENV, MEDIA_MAX_VIDEO_BYTES: String(400 * MB) };

/** Resident memory of a process (VmRSS), bytes. */
const rssOf = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) * 1024;
};

/** Samples a process's RSS every 100 ms until stopped; answers the peak. */
function sampler(pid: number) {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(pid));
    } catch {}
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

async function waitPosts(appUrl: string, token: string, count: number) {
  const headers = { authorization: `Bearer ${token}` };
  for (let tries = 0; tries < 3600; tries++) {
    const feed = (await (await fetch(`${appUrl}/api/v1/media/feed?limit=50`, { headers })).json()) as {
      posts: { files: { file_url: string }[] }[];
    };
    if (feed.posts.length >= count) return feed.posts;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('posts did not finish processing');
}

async function uploadFile(appUrl: string, token: string, file: string, type: string) {
  const form = new FormData();
  form.append('caption', 'bench');
  form.append('files', await fs.openAsBlob(file, { type }), path.basename(file));
  const res = await fetch(`${appUrl}/api/v1/media/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 202) throw new Error(`upload: ${res.status} ${await res.text()}`);
}

/** A ~200 MB H.264 file of noise (incompressible, so the size is real), made once per run. */
function bigVideo(dir: string): string {
  const out = path.join(dir, 'big.mp4');
  const { ffmpeg } = findFfmpeg();
  execFileSync(ffmpeg, [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'color=c=gray:s=640x360:r=25,noise=alls=100:allf=t'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100'],
    ...['-t', '22', '-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-shortest', '-movflags', '+faststart', '-y', out],
  ]);
  return out;
}

async function seedPhotos(appUrl: string, token: string) {
  const images = [await brightImage(1), await nightImage(), await brightImage(2)];
  for (let i = 0; i < POSTS; i++) {
    const form = new FormData();
    form.append('caption', `Пост ${i} #природа`);
    form.append(
      'files',
      new Blob([new Uint8Array(images[i % images.length]!)], { type: 'image/jpeg' }),
      `${i}.jpg`,
    );
    const res = await fetch(`${appUrl}/api/v1/media/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    if (res.status !== 202) throw new Error(`upload ${i}: ${res.status}`);
  }
  return waitPosts(appUrl, token, POSTS);
}

/**
 * Feed requests/s with media on S3 (MinIO) as a ratio to the local disk (aim ≥ 0.9), the /files/ hot read (a
 * static file vs a redirect to a presigned URL), and the server's RSS while a 200 MB video is uploaded and
 * processed on S3 (flat: the upload streams to disk, the output streams to the bucket in 8 MB parts).
 */
export async function storageBench(options: { feed?: boolean } = {}): Promise<string[]> {
  const bucket = await startTestBucket();
  const work = tempDir('kadr-storage-bench-');
  const lines: string[] = [];
  try {
    if (options.feed !== false) {
      const results: Record<string, { feed: number; files: number; filesNon2xx: number; errors: number }> =
        {};
      for (const backend of ['local', 's3'] as const) {
        const t = await startTarget(backend === 's3' ? { ...ENV, ...bucket.env() } : ENV);
        try {
          const headers = { authorization: `Bearer ${t.target.token}` };
          const posts = await seedPhotos(t.target.appUrl, t.target.token);
          const feedUrl = `${t.target.appUrl}/api/v1/media/feed?offset=0&limit=15`;
          const fileUrl = `${t.target.appUrl}${posts[0]!.files[0]!.file_url}`;
          await load(feedUrl, { duration: 2, headers });
          const feed = await load(feedUrl, { headers });
          const files = await load(fileUrl, { duration: 4 });
          results[backend] = {
            feed: feed.rps,
            files: files.rps,
            filesNon2xx: files.non2xx,
            errors: feed.errors + feed.non2xx + files.errors,
          };
        } finally {
          await t.stop();
        }
      }
      lines.push(row(['storage', 'feed rps', 'ratio', '/files/ rps', 'errors']));
      for (const b of ['local', 's3'] as const) {
        const r = results[b]!;
        lines.push(row([b, r.feed, r.feed / results.local!.feed, r.files, r.errors]));
      }
      lines.push(
        '(/files/ on s3 answers 302 to a presigned bucket URL: the bytes never pass through the app)',
      );

      // The feed figures are printed even if the upload phase below fails.
      console.log(lines.join('\n'));
      lines.length = 0;
    }
    const video = bigVideo(work);
    const size = fs.statSync(video).size;
    const t: Target = await startTarget({ ...VIDEO_ENV, ...bucket.env() });
    try {
      const pid = t.child.pid!;
      await seedPhotos(t.target.appUrl, t.target.token);
      const idle = rssOf(pid);
      const during = sampler(pid);
      await uploadFile(t.target.appUrl, t.target.token, video, 'video/mp4');
      const uploadPeak = during.stop();
      const processing = sampler(pid);
      await waitPosts(t.target.appUrl, t.target.token, POSTS + 1);
      const processPeak = processing.stop();
      lines.push(
        row(['200 MB upload', 'video MB', 'idle RSS MB', 'upload peak', 'process peak', 'growth MB']),
        row([
          's3',
          size / MB,
          idle / MB,
          uploadPeak / MB,
          processPeak / MB,
          (Math.max(uploadPeak, processPeak) - idle) / MB,
        ]),
      );
    } finally {
      await t.stop();
    }

    // The storage layer alone: a 200 MB stream put into the bucket from this process.
    const config = loadConfig(bucket.env()).s3!;
    const storage = await s3Storage(config);
    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    const self = sampler(process.pid);
    await storage.put('media/bench/big.mp4', fs.createReadStream(video));
    const peak = self.stop();
    lines.push(row(['put 200 MB', 'rss before MB', 'peak MB', 'growth MB']));
    lines.push(row(['s3 stream', before / MB, peak / MB, (peak - before) / MB]));
  } finally {
    await bucket.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
  return lines;
}
