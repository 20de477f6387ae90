import { Limits } from '@kadr/contract/browser';
import { StorageKeys } from '../../../shared/storage/keys.ts';
import { local } from '../../../shared/storage/local.ts';

const W = Limits.notificationPanelWidth;

export function clampWidth(px: number): number {
  if (!Number.isFinite(px)) return W.default;
  return Math.round(Math.min(W.max, Math.max(W.min, px)));
}

/** The remembered desktop panel width (300–600, default 400). */
export function storedWidth(): number {
  const raw = local.get(StorageKeys.notificationsPanelWidth);
  return raw === null ? W.default : clampWidth(Number(raw));
}

export function storeWidth(px: number): void {
  local.set(StorageKeys.notificationsPanelWidth, String(clampWidth(px)));
}
