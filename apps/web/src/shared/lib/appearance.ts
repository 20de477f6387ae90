import { StorageKeys } from '../storage/keys.ts';
import { local } from '../storage/local.ts';

export type ThemeChoice = 'light' | 'dark' | 'system';
export type TextSizeChoice = 'small' | 'medium' | 'large';

const THEMES: readonly ThemeChoice[] = ['light', 'dark', 'system'];
const SIZES: readonly TextSizeChoice[] = ['small', 'medium', 'large'];

/** Applies the theme and text size to <html> at once (CSS variables in global.css) and keeps them locally. */
export function applyAppearance(
  choice: { theme?: ThemeChoice; text_size?: TextSizeChoice },
  root: HTMLElement = document.documentElement,
): void {
  if (choice.theme) {
    root.dataset.theme = choice.theme;
    local.set(StorageKeys.settingsTheme, choice.theme);
  }
  if (choice.text_size) {
    root.dataset.textSize = choice.text_size;
    local.set(StorageKeys.settingsTextSize, choice.text_size);
  }
}

/** Before the first paint: what was chosen last on this device (the server's copy arrives later). */
export function applyStoredAppearance(root: HTMLElement = document.documentElement): void {
  const theme = local.get(StorageKeys.settingsTheme) as ThemeChoice | null;
  const size = local.get(StorageKeys.settingsTextSize) as TextSizeChoice | null;
  root.dataset.theme = theme && THEMES.includes(theme) ? theme : 'dark';
  if (size && SIZES.includes(size)) root.dataset.textSize = size;
}
