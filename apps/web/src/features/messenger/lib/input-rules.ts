/** Spec §9 mobile breakpoint: under 768 px (or a mobile user agent) Enter inserts a newline. */
export const MOBILE_WIDTH = 768;
/** The text area grows up to this height, then scrolls. */
export const INPUT_MAX_HEIGHT = 150;

const MOBILE_UA = /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobile/i;

export function isMobileInput(userAgent: string, width: number): boolean {
  return MOBILE_UA.test(userAgent) || width < MOBILE_WIDTH;
}

/**
 * What Enter does. On mobile it always breaks the line. On desktop it follows the user's "Enter sends"
 * setting: on, Enter sends and Shift+Enter breaks the line; off, Enter breaks the line and Ctrl/Cmd+Enter
 * sends.
 */
export function enterAction(
  event: { key: string; shiftKey: boolean; ctrlKey?: boolean; metaKey?: boolean; isComposing?: boolean },
  mobile: boolean,
  enterSends = true,
): 'send' | 'newline' | null {
  if (event.key !== 'Enter' || event.isComposing) return null;
  if (mobile) return 'newline';
  if (!enterSends) return event.ctrlKey || event.metaKey ? 'send' : 'newline';
  return event.shiftKey ? 'newline' : 'send';
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
