import type { MediaTag } from '@kadr/contract';

/** A frame to look at: encoded image bytes (png/jpeg/webp). */
export type Frame = Buffer;

/** Measured, not guessed: pixel statistics of the frames and, for video, motion and loudness. */
export interface MediaSignals {
  kind: 'image' | 'video' | 'carousel';
  /** 0 (black) … 1 (white), mean luma. */
  brightness: number;
  /** 0 (grey) … 1 (pure colour), mean chroma (max − min channel). */
  saturation: number;
  /** 0 (flat) … 1 (busy), mean luma gradient. */
  detail: number;
  /** mean red minus mean blue, −1 … 1. */
  warmth: number;
  /** 0 (still) … 1, mean frame-to-frame difference; 0 for still images. */
  motion: number;
  /** Mean loudness in dBFS, null when there is no audio track. */
  loudnessDb: number | null;
}

/** What a labeler (object/face detector or a remote vision model) found. */
export interface Labels {
  /** Detector labels (COCO names for the local model) with the highest count seen in one frame. */
  objects: {
    label: string;
    count: number;
    score: number;
    /** Largest box as a share of the frame, 0 … 1 (absent from a remote model). */
    area?: number;
    /** Frames (of a video) the label was seen in. */
    frames?: number;
  }[];
  faces: number;
  /** Tags a remote model chose directly (already our keys). */
  tags?: MediaTag[];
  /** A description a remote model wrote (Russian). */
  description?: string;
}

export interface LabelOptions {
  /** Also look at the frames zoomed out (close-ups the detector misses at full size); a remote model ignores it. */
  zoomOut?: boolean;
}

export interface Labeler {
  provider: string;
  model: string;
  label(frames: Frame[], options?: LabelOptions): Promise<Labels>;
  /** Loads the model ahead of the first post (a no-op for a remote model). */
  warm?(): Promise<void>;
  close?(): Promise<void>;
}

export interface TagInput {
  frames: Frame[];
  signals: MediaSignals;
  caption: string;
}

/** A named object: COCO label, Russian phrase with its count («две лошади»), the count. */
export interface NamedObject {
  label: string;
  name: string;
  count: number;
}

export interface TagResult {
  tags: MediaTag[];
  /** Objects the detector named, most important first. */
  objects: NamedObject[];
  forSleep: boolean;
  calmScore: number;
  description: string;
  provider: string;
  model: string;
}

/** The one interface the pipeline calls: local (default, offline) or remote by config. */
export interface Tagger {
  provider: string;
  model: string;
  /** `onProgress` hears the share of the frames labelled so far, 0 … 1. */
  tag(input: TagInput, onProgress?: (fraction: number) => void): Promise<TagResult>;
  /** Loads the model ahead of the first post. */
  warm(): Promise<void>;
  close(): Promise<void>;
}
