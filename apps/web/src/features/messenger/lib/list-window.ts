/** Spec §9 chat list: rows of 72 px; 20 visible rows on screens 900 px or taller, else 15; 5 around. */
export const CHAT_ROW_HEIGHT = 72;
export const CHAT_LIST_OVERSCAN = 5;

export function visibleChatRows(screenHeight: number): number {
  return screenHeight >= 900 ? 20 : 15;
}
