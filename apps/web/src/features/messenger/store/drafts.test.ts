import 'fake-indexeddb/auto';
import { get } from 'idb-keyval';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearPrivateData } from '../../../shared/storage/private-data.ts';
import { privateStore } from '../../../shared/storage/private-stores.ts';
import { DRAFT_SAVE_MS, useDrafts } from './drafts.ts';

afterEach(() => vi.useRealTimers());

describe('drafts', () => {
  it('are kept on the device per person and chat, read back after a reload, and gone on sign-out', async () => {
    await useDrafts.getState().load(7);
    useDrafts.getState().setDraft(42, 'черновик');
    useDrafts.getState().setDraft(-3, 'в группу');
    await vi.waitFor(async () =>
      expect(await get('drafts:7', privateStore('drafts'))).toEqual({ 42: 'черновик', '-3': 'в группу' }),
    );
    // A reload: a fresh memory reads the device's copy.
    useDrafts.getState().forget();
    expect(useDrafts.getState().drafts).toEqual({});
    await useDrafts.getState().load(7);
    expect(useDrafts.getState().drafts[42]).toBe('черновик');
    // Sending clears the chat's draft.
    useDrafts.getState().setDraft(42, '');
    expect(useDrafts.getState().drafts[42]).toBeUndefined();

    await clearPrivateData(null);
    expect(useDrafts.getState().drafts).toEqual({});
    expect(await get('drafts:7', privateStore('drafts'))).toBeUndefined();
    expect(DRAFT_SAVE_MS).toBeLessThan(1000);
  });
});
