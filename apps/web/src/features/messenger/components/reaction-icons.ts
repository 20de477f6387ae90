import type { ReactionKind } from '@kadr/contract';
import { Flame, Frown, Heart, Laugh, type LucideIcon, ThumbsDown, ThumbsUp } from 'lucide-react';

/** Each reaction of the fixed set drawn with an icon (never an emoji glyph: fonts may lack them). */
export const REACTION_ICONS: Record<ReactionKind, LucideIcon> = {
  like: ThumbsUp,
  heart: Heart,
  laugh: Laugh,
  fire: Flame,
  sad: Frown,
  dislike: ThumbsDown,
};
