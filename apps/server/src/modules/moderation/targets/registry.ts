import type { ModerationTargetKind } from '@kadr/contract';
import type { AppContext } from '../../../app-types.ts';
import { commentTarget } from './comment.ts';
import { conversationTarget } from './conversation.ts';
import { liveChatMessageTarget } from './live-chat-message.ts';
import { messageTarget } from './message.ts';
import { postTarget } from './post.ts';
import type { TargetResolver } from './resolver.ts';
import { storyTarget } from './story.ts';
import { userTarget } from './user.ts';

export type TargetRegistry = Record<ModerationTargetKind, TargetResolver>;

export function targetRegistry(ctx: AppContext): TargetRegistry {
  return {
    post: postTarget(ctx),
    comment: commentTarget(ctx),
    story: storyTarget(ctx),
    message: messageTarget(ctx),
    live_chat_message: liveChatMessageTarget(ctx),
    user: userTarget(ctx),
    group: conversationTarget(ctx, 'group'),
    channel: conversationTarget(ctx, 'channel'),
  };
}
