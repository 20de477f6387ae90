import fs from 'node:fs';
import path from 'node:path';
import type { MediaTag } from '@kadr/contract';
import { repoRoot } from '../../config.ts';

/** The prepared demo media (assets/demo, made by `npm run demo:prepare` from Debian packages through the real pipeline). */
export const DEMO_ASSETS_DIR = path.join(repoRoot, 'assets/demo');

export interface PreparedFile {
  file: string;
  bytes: number;
  sha256: string;
}

export interface PreparedMedia {
  kind: 'photo' | 'story' | 'video' | 'avatar';
  width: number;
  height: number;
  duration?: number;
  hasAudio?: boolean;
  /** The feed variant (webp), the story picture (webp), the transcoded video (mp4) or the square avatar (webp). */
  feed: PreparedFile;
  thumbnail: PreparedFile;
  /** A video's poster. */
  poster?: PreparedFile;
  /**
   * A photo's screen variant (fit inside 720×1280, what the feed shows); a story's (exactly 720×1280, what a
   * phone's viewer shows; none for a story no larger than that).
   */
  screen?: PreparedFile;
  /** Where it comes from (package, version, path, licence, author; a video's muxed recording). */
  credit: Record<string, unknown>;
}

/** What the local tagger said about each demo post (keyed by caption), as the post job would store it. */
export interface PreparedTags {
  tags: MediaTag[];
  forSleep: boolean;
  calmScore: number;
  description: string;
  provider: string;
  model: string;
}

export interface DemoManifest {
  version: 1;
  media: Record<string, PreparedMedia>;
  posts: Record<string, PreparedTags>;
}

export function readManifest(dir = DEMO_ASSETS_DIR): DemoManifest {
  return JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as DemoManifest;
}

export function preparedBytes(file: PreparedFile, dir = DEMO_ASSETS_DIR): Buffer {
  return fs.readFileSync(path.join(dir, file.file));
}
