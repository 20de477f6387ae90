/** Spec §9 mobile breakpoint: under 768 px (or a mobile user agent) Enter inserts a newline. */
export const MOBILE_WIDTH = 768;
/** The text area grows up to this height, then scrolls. */
export const INPUT_MAX_HEIGHT = 150;

const MOBILE_UA = /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobile/i;

export function isMobileInput(userAgent: string, width: number): boolean {
  return MOBILE_UA.test(userAgent) || width < MOBILE_WIDTH;
}

/** What Enter does: Shift+Enter always a newline; Enter sends on desktop, newline on mobile. */
export function enterAction(
  event: { key: string; shiftKey: boolean; isComposing?: boolean },
  mobile: boolean,
): 'send' | 'newline' | null {
  if (event.key !== 'Enter' || event.isComposing) return null;
  if (event.shiftKey || mobile) return 'newline';
  return 'send';
}

/** Sending needs non-empty trimmed text (or an attachment) and a selected chat. */
export function canSend(text: string, hasFiles: boolean, hasChat: boolean): boolean {
  return hasChat && (text.trim().length > 0 || hasFiles);
}

/** The text area's height for its content height. */
export function inputHeight(scrollHeight: number): number {
  return Math.min(scrollHeight, INPUT_MAX_HEIGHT);
}

/** Files from a paste event's clipboard items. */
export function pastedFiles(items: ArrayLike<{ kind: string; getAsFile: () => File | null }>): File[] {
  const files: File[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item?.kind !== 'file') continue;
    const file = item.getAsFile();
    if (file) files.push(file);
  }
  return files;
}
