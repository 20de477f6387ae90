import type { ReactionKind } from '@kadr/contract/browser';
import like from '@twemoji/svg/1f44d.svg?url&no-inline';
import dislike from '@twemoji/svg/1f44e.svg?url&no-inline';
import fire from '@twemoji/svg/1f525.svg?url&no-inline';
import laugh from '@twemoji/svg/1f602.svg?url&no-inline';
import sad from '@twemoji/svg/1f622.svg?url&no-inline';
import heart from '@twemoji/svg/2764.svg?url&no-inline';

/**
 * Each reaction of the fixed set as an emoji from the shipped Twemoji set (shared/emoji/twemoji.ts), in the
 * quick bar's order: the same picture on every device, whatever emoji font it has.
 */
export const REACTION_EMOJI: Record<ReactionKind, { emoji: string; src: string }> = {
  like: { emoji: '👍', src: like },
  heart: { emoji: '❤️', src: heart },
  laugh: { emoji: '😂', src: laugh },
  fire: { emoji: '🔥', src: fire },
  sad: { emoji: '😢', src: sad },
  dislike: { emoji: '👎', src: dislike },
};
