import { messengerStrings } from '../../features/messenger/strings.ts';
import { storiesStrings } from '../../features/stories/strings.ts';
import type { FrameKind } from './first-requests.ts';

/**
 * The app's frame as the HTML carries it (paint before the scripts): the navigation's place and
 * a skeleton of the page asked for, drawn with the inline critical CSS below, so the first paint comes with
 * the first bytes. The server puts the frame of the requested path into `#root` (plugins/web.ts); React
 * replaces it on its first render. Shapes follow the pages' own layout (HomePage, ChatList, ChatWindow,
 * ProfileCard) at both the phone and the desktop (≥ 1024 px, ADR 0009) layout; nothing in it is
 * interactive, and it is hidden from assistive technology until the app is there.
 */
export const FRAME_CSS = `
.kf{min-height:100dvh;color:var(--color-text,#f4f4f5)}
.kf-over{position:fixed;inset:0;z-index:900;overflow:hidden;background:var(--color-bg,#0b0b0f)}
.kf-gone{opacity:0;pointer-events:none}
.kf-main{padding:24px 16px 96px;display:flex;flex-direction:column;gap:14px}
.kf-rail{display:none}
.kf-nav{position:fixed;left:50%;bottom:12px;width:56px;height:56px;margin-left:-28px;border-radius:999px;background:var(--color-surface-raised,#26262b)}
.kf-title{margin:0;font-size:28px;font-weight:800}
.kf-heading{margin:6px 0 0;font-size:18px;font-weight:700}
.kf-b{background:var(--color-surface-raised,#26262b);border-radius:8px}
.kf-strip{display:flex;gap:14px;overflow:hidden;padding:4px 0 8px}
.kf-story{flex:none;width:74px;display:flex;flex-direction:column;align-items:center;gap:6px;font-size:12px}
.kf-story>i{width:72px;height:72px;border-radius:50%}
.kf-grid{--columns:3;--gap:4px;container-type:inline-size;display:grid;grid-template-columns:repeat(var(--columns),1fr);gap:var(--gap)}
.kf-grid>i{width:100%;aspect-ratio:9/16;height:round(down,calc((100cqw - (var(--columns) - 1)*var(--gap))/var(--columns)*16/9),1px);border-radius:var(--radius-s,6px);overflow:hidden}
.kf-grid>i>img{display:block;width:100%;height:100%;object-fit:cover}
.kf-row{display:flex;align-items:center;gap:12px;height:64px}
.kf-row>i:first-child{flex:none;width:48px;height:48px;border-radius:50%}
.kf-lines{flex:1;display:flex;flex-direction:column;gap:8px}
.kf-lines>i{height:12px;width:40%}.kf-lines>i+i{width:75%}
.kf-media{position:fixed;inset:0;background:#000}
.kf-media>img{position:absolute;inset:0;margin:auto;max-width:100%;max-height:100%;width:auto;height:auto}
.kf-chat{display:flex;flex-direction:column;height:100dvh}
.kf-chathead{display:flex;align-items:center;gap:12px;height:64px;padding:0 12px;border-bottom:1px solid var(--color-border,#2c2c31)}
.kf-chathead>i{width:40px;height:40px;border-radius:50%}
.kf-msgs{flex:1;min-height:0;display:flex;flex-direction:column-reverse;overflow:hidden;padding:8px 0}
.kf-list{display:flex;flex-direction:column;gap:2px;padding:0 24px}
.kf-list>i,.kf-m>i{height:40px;width:55%;margin:4px 12px;border-radius:16px}.kf-list>i:nth-child(2n){align-self:flex-end;width:45%}
.kf-m{display:flex;flex-direction:column;align-items:flex-start;padding:2px 12px}
.kf-m>i{margin:0}
.kf-own{align-items:flex-end}
.kf-bub{max-width:min(75%,560px);padding:6px 10px 4px;border-radius:var(--radius-m,12px);background:var(--color-surface-raised,#1f1f29);overflow-wrap:anywhere;white-space:pre-wrap}
.kf-own>.kf-bub{background:var(--color-bubble-own,#3a1d2a)}
.kf-bub>p{margin:0}
.kf-bub img{display:inline-block;width:1.25em;height:1.25em;margin:0 .05em;vertical-align:-.25em}
.kf-bub>span{display:block;height:16px}
.kf-input{height:48px;margin:8px 12px 16px;padding:0 16px;border-radius:24px;line-height:48px;color:var(--color-text-muted,#a1a1aa)}
.kf-sv{position:fixed;inset:0;z-index:1;display:grid;place-items:center;background:#000}
.kf-svf{position:relative;width:100vw;height:100dvh;overflow:hidden;background:#0d0d12}
.kf-svf>img{display:block;width:100%;height:100%;object-fit:contain}
@media (min-width:768px){.kf-svf{height:min(calc(100dvh - 32px),900px);width:calc(min(calc(100dvh - 32px),900px)*9/16);border-radius:var(--radius-l,20px)}}
.kf-profile{display:flex;align-items:center;gap:16px}
.kf-profile>i{flex:none;width:88px;height:88px;border-radius:50%}
@media (min-width:1024px){
.kf:not(.kf-bare){display:grid;grid-template-columns:240px minmax(0,1fr)}
.kf-rail{display:flex;flex-direction:column;gap:4px;position:sticky;top:0;height:100dvh;padding:24px 12px;border-right:1px solid var(--color-border,#2c2c31)}
.kf-logo{padding:0 12px 16px;font-size:24px;font-weight:800;letter-spacing:.02em;color:var(--color-accent-text,#fe2c55)}
.kf-rail>i{height:48px;margin:0 0 4px}
.kf-nav{display:none}
.kf-main{width:100%;max-width:760px;justify-self:center;padding:32px}
.kf-grid{--columns:5;--gap:8px}
.kf-media{position:relative;min-height:100dvh;max-width:720px;width:100%;justify-self:center}
.kf-chat{min-height:100dvh}
}
`;

const blocks = (n: number, className = 'kf-b') => `<i class="${className}"></i>`.repeat(n);
// A story: its ring and a line of the name's height (StoriesStrip), so the grid below starts where the page's does.
const story = '<span class="kf-story"><i class="kf-b"></i><span>&nbsp;</span></span>';
const row = `<div class="kf-row"><i class="kf-b"></i><div class="kf-lines">${blocks(2)}</div></div>`;

function body(kind: FrameKind): string {
  switch (kind) {
    case 'home':
      return `<main class="kf-main"><h1 class="kf-title">${storiesStrings.homeTitle}</h1><div class="kf-strip">${story.repeat(6)}</div><h2 class="kf-heading">${storiesStrings.homeFeed}</h2><div class="kf-grid">${blocks(9)}</div></main>`;
    case 'media':
      return '<main class="kf-media"></main>';
    case 'messenger':
      return `<main class="kf-main"><h1 class="kf-title">${messengerStrings.title}</h1>${row.repeat(8)}</main>`;
    case 'chat':
    case 'group':
      return `<main class="kf-chat"><div class="kf-chathead"><i class="kf-b"></i><div class="kf-lines">${blocks(2)}</div></div><div class="kf-msgs"><div class="kf-list">${blocks(6)}</div></div><div class="kf-b kf-input">${messengerStrings.inputPlaceholder}</div></main>`;
    case 'profile':
      return `<main class="kf-main"><div class="kf-profile"><i class="kf-b"></i><div class="kf-lines">${blocks(2)}</div></div><div class="kf-grid">${blocks(9)}</div></main>`;
    default:
      return '';
  }
}

/** The frame of one kind of page; the sign-in pages and pages without a skeleton get none. */
export function frameHtml(kind: FrameKind): string {
  const inner = body(kind);
  if (!inner) return '';
  // A profile page has no shell (no rail, no navigation button).
  const shell = kind !== 'profile';
  const rail = shell ? `<nav class="kf-rail"><div class="kf-logo">Kadr</div>${blocks(5)}</nav>` : '';
  // An open chat fills a phone's screen: the page hides the navigation button there (MessengerView).
  const nav = shell && kind !== 'chat' && kind !== 'group' ? '<i class="kf-nav"></i>' : '';
  return `<div class="kf${shell ? '' : ' kf-bare'}" aria-hidden="true" data-frame="${kind}">${rail}${inner}${nav}</div>`;
}

export const FRAME_KINDS: readonly FrameKind[] = ['home', 'media', 'messenger', 'chat', 'group', 'profile'];
