// The inline script of index.html (built into it by build/inline-boot.ts; its hash is allowed by the CSP):
// before the app's scripts download, it applies the stored theme and, for a signed-in page, starts the
// page's first API requests from the stored token (first-requests.ts), preloads the image its first
// screen shows largest once the list that names it answers and paints the first screen's pictures into
// the HTML's frame (app/boot/frame.ts). The app takes those answers
// (shared/api/boot-responses.ts). Nothing here may throw into the page: any failure leaves the app to ask
// for itself.

import type { ChatListItem, Group, Message, Post, StoryGroupResponse } from '@kadr/contract';
import { apiUrl, DATA_VERSION } from '@kadr/contract/browser';
import { messengerEndpoints } from '@kadr/contract/messenger/endpoints';
import { BOOT_GLOBAL, type BootResponses } from '../../shared/api/boot-global.ts';
import { emojiUrl, splitEmoji } from '../../shared/emoji/emoji-pattern.ts';
import { applyStoredAppearance } from '../../shared/lib/appearance.ts';
import {
  feedImage,
  type PostImage,
  shownTileImage,
  storyPicture,
  tileImage,
} from '../../shared/lib/post-image.ts';
import { StorageKeys } from '../../shared/storage/keys.ts';
import { conversationUrl, firstRequests, groupMessagesUrl, type LcpSource } from './first-requests.ts';

function preloadImage(image: { src: string } | null): void {
  if (!image) return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  link.href = image.src;
  link.setAttribute('fetchpriority', 'high');
  document.head.appendChild(link);
}

/**
 * The picture of a story opened by link, as its viewer shows it (StoryViewer, both through `storyPicture`): a
 * photo's screen variant (else its image at the story's frame size), or a video's poster; none for a story
 * carrying a tag the reader hid (the viewer covers it).
 */
export function storyImage(body: StoryGroupResponse): PostImage | null {
  const story = body.group?.stories?.find((s) => s.id === body.story_id);
  if (!story || story.is_filtered) return null;
  return storyPicture(story);
}

/** Paints a story opened by link over the home frame, where and as large as its viewer will show it. */
export function paintStory(image: PostImage | null): void {
  const frame = document.querySelector('[data-frame]');
  if (!frame || !image) return;
  const view = frame.appendChild(document.createElement('div'));
  view.className = 'kf-sv';
  const box = view.appendChild(document.createElement('div'));
  box.className = 'kf-svf';
  box.appendChild(imageElement(image, true));
}

function lcpOf(source: LcpSource, body: { posts?: Post[] }): PostImage | null {
  const first = body.posts?.[0];
  // A post carrying a tag the reader hid shows no picture (the feed covers it, a grid shows a notice).
  if (!first || first.is_filtered) return null;
  return source === 'feed' ? feedImage(first) : tileImage(first);
}

function imageElement(image: PostImage, first: boolean): HTMLImageElement {
  const img = document.createElement('img');
  img.src = image.src;
  img.width = image.width;
  img.height = image.height;
  // The frame is hidden from assistive technology: its pictures carry no text.
  img.alt = '';
  if (first) img.setAttribute('fetchpriority', 'high');
  return img;
}

/**
 * Paints the first screen's pictures into the frame (app/boot/frame.ts) as soon as the list that names
 * them answers, so they show before the app's scripts have arrived; React replaces the frame with the real
 * page, whose images name the same URLs (loaded by then). A grid's first tile comes first and the rest once
 * it has been painted, so on a slow link the first does not share it with eight others; the feed shows its first
 * post's photo or poster as the feed centres it.
 */
export function paintFrame(source: LcpSource, posts: Post[]): void {
  const frame = document.querySelector('[data-frame]');
  if (!frame) return;
  if (source === 'feed') {
    const image = lcpOf(source, { posts });
    if (image) frame.querySelector('.kf-media')?.appendChild(imageElement(image, true));
    return;
  }
  const slots = [...frame.querySelectorAll('.kf-grid > i')];
  // An image element starts its download as soon as it has a source: each is made when it is painted.
  const paint = (index: number) => {
    const post = posts[index];
    const image = post ? shownTileImage(post) : null;
    const slot = slots[index];
    if (!image || !slot) return null;
    return slot.appendChild(imageElement(image, index === 0));
  };
  const paintRest = () => {
    for (let index = 1; index < slots.length; index++) paint(index);
  };
  const first = paint(0);
  if (!first) {
    paintRest();
    return;
  }
  // The rest once the first has been painted: after the frame that shows it (decoded, then a frame).
  first
    .decode()
    .catch(() => undefined)
    .then(() => requestAnimationFrame(() => setTimeout(paintRest, 0)));
}

/** The newest messages a chat's frame shows; more would sit above the screen. */
const FRAME_MESSAGES = 20;

/**
 * A message's text as the chat shows it, when the frame can draw it the same way: plain text in a bubble of
 * its own. Anything the page draws otherwise (markup the Markdown view renders, a mention or a link, a quote, a
 * forward, files, reactions, a story, a call or a service line) is null: the frame keeps a skeleton there.
 */
export function frameText(message: Message): string | null {
  const { content } = message;
  if (message.message_type !== 'text' || !content || content.length > 500) return null;
  if (message.files.length > 0 || message.reply_to || message.is_forwarded || message.story) return null;
  if ((message.reactions?.length ?? 0) > 0) return null;
  if (/[*_~`[\]@<>\\\n]|https?:/.test(content)) return null;
  return content;
}

/** The text into the element, its emoji as the page draws them: images of the shipped set (shared/emoji). */
function appendText(element: HTMLElement, text: string): void {
  const parts = splitEmoji(text);
  if (!parts) {
    element.textContent = text;
    return;
  }
  parts.forEach((part, index) => {
    if (index % 2 === 0) element.append(part);
    else
      Object.assign(element.appendChild(document.createElement('img')), {
        src: emojiUrl(part),
        alt: part,
        width: 20,
        height: 20,
      });
  });
}

/**
 * Paints a chat's newest messages into the frame (app/boot/frame.ts) as soon as the conversation answers:
 * the same text in bubbles of the page's geometry (MessageList, MessageBubble), so the text a reader looks
 * for shows before the app's scripts have arrived and the page's copy, painted later, is no larger.
 */
export function paintMessages(messages: Message[], ownId: number | null): void {
  const scroller = document.querySelector('[data-frame] .kf-msgs');
  const newest = [...messages].sort((a, b) => a.id - b.id).slice(-FRAME_MESSAGES);
  if (!scroller || newest.length === 0) return;
  const list = document.createElement('div');
  list.className = 'kf-list';
  for (const message of newest) {
    if (message.message_type === 'service') continue;
    const row = document.createElement('div');
    row.className = message.sender_id === ownId ? 'kf-m kf-own' : 'kf-m';
    const text = frameText(message);
    if (text === null) row.appendChild(document.createElement('i')).className = 'kf-b';
    else {
      const bubble = row.appendChild(document.createElement('div'));
      bubble.className = 'kf-bub';
      appendText(bubble.appendChild(document.createElement('p')), text);
      // The line of the time and the ticks, as tall as the page's.
      bubble.appendChild(document.createElement('span'));
    }
    list.appendChild(row);
  }
  scroller.replaceChildren(list);
}

function storedUserId(): number | null {
  try {
    const user = JSON.parse(localStorage.getItem(StorageKeys.authUser) ?? 'null') as { id?: unknown } | null;
    return typeof user?.id === 'number' ? user.id : null;
  } catch {
    return null;
  }
}

function whenParsed(run: () => void): void {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run, { once: true });
  else run();
}

function start(): void {
  applyStoredAppearance();
  const token = localStorage.getItem(StorageKeys.authAccessToken);
  if (!token || localStorage.getItem(StorageKeys.dataVersion) !== DATA_VERSION) return;
  if (!localStorage.getItem(StorageKeys.authUser)) return;
  const plan = firstRequests(location.pathname, location.search);
  if (plan.urls.length === 0) return;
  const headers = { Accept: 'application/json', Authorization: `Bearer ${token}` };
  const responses: BootResponses = new Map();
  const get = (url: string) => {
    const answer = fetch(url, { headers });
    // A failed boot request is the app's to retry; never an unhandled rejection here.
    answer.catch(() => undefined);
    responses.set(url, answer);
    return answer;
  };
  (window as unknown as Record<string, unknown>)[BOOT_GLOBAL] = responses;
  const paintChat = (messages: Message[]) => whenParsed(() => paintMessages(messages, storedUserId()));
  for (const url of plan.urls) {
    const answer = get(url);
    const lcp = plan.lcp;
    if (lcp?.source === 'story' && url === lcp.url)
      bodyOf<StoryGroupResponse>(answer, (body) => {
        const image = storyImage(body);
        preloadImage(image);
        whenParsed(() => paintStory(image));
      });
    else if (lcp && url === lcp.url)
      bodyOf<{ posts?: Post[] }>(answer, (body) => {
        preloadImage(lcpOf(lcp.source, body));
        whenParsed(() => paintFrame(lcp.source, body.posts ?? []));
      });
    if (plan.chatWith && url === apiUrl(messengerEndpoints.chats))
      bodyOf<{ chats?: ChatListItem[] }>(answer, (body) => {
        const chat = body.chats?.find(
          (c) => c.type === 'personal' && !c.is_favorites && c.profile_username === plan.chatWith,
        );
        if (chat?.user_id)
          bodyOf<{ messages?: Message[] }>(get(conversationUrl(chat.user_id)), (conversation) =>
            paintChat(conversation.messages ?? []),
          );
      });
    if (url === plan.group)
      bodyOf<Group>(answer, (group) => {
        // Not a member: the page is the group's preview, with no messages.
        if (group.isMember) bodyOf<Message[]>(get(groupMessagesUrl(group.id)), paintChat);
      });
  }
}

/** An answer's body, read from a copy (the app reads the answer itself), when it succeeded. */
function bodyOf<T>(answer: Promise<Response>, use: (body: T) => void): void {
  answer
    .then((r) => (r.ok ? (r.clone().json() as Promise<T>) : null))
    .then((body) => {
      if (body !== null) use(body);
    })
    .catch(() => undefined);
}

try {
  start();
} catch {
  // Storage or fetch unavailable: the app starts the usual way.
}
