import { afterEach, describe, expect, it } from 'vitest';
import { startPerfHelper } from './perf-helper.ts';
import { perfStrings as t } from './strings.ts';

const press = () =>
  window.dispatchEvent(new KeyboardEvent('keydown', { altKey: true, shiftKey: true, code: 'KeyP' }));
const overlay = () => document.querySelector(`[role="status"][aria-label="${t.title}"]`);

describe('the performance helper overlay', () => {
  afterEach(() => overlay()?.remove());

  it('Alt+Shift+P shows the overlay with every measure, fills it as samples come, and hides it again', async () => {
    const store = startPerfHelper(window);
    expect(overlay()).toBeNull();

    press();
    const shown = overlay();
    expect(shown).not.toBeNull();
    expect(shown?.textContent).toContain(t.chatSwitch);
    expect(shown?.textContent).toContain(t.messageSend);
    expect(shown?.textContent).toContain(t.scroll);
    expect(shown?.textContent).toContain(t.memory);

    // A chat switch is a navigation into /messenger/… measured until the next painted frame.
    window.history.pushState(null, '', '/messenger/anna');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(store.list('chatSwitch')).toHaveLength(1);
    expect(overlay()?.textContent).toMatch(new RegExp(`${t.chatSwitch}: \\d+ ${t.ms} · 1 ·`));

    // A slow sample is counted as such.
    store.record('messageSend', 500);
    expect(overlay()?.textContent).toContain(t.row(t.messageSend, `500 ${t.ms}`, 1, 1));

    press();
    expect(overlay()).toBeNull();
  });
});
