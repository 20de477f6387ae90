import { apiUrl } from '@kadr/contract/browser';
import { groupsEndpoints } from '@kadr/contract/groups/endpoints';
import { auth, registerViaApi, type Session, storeSessionBeforeLoad, uniqueUsername } from './helpers.ts';
import { type Browser, expect as baseExpect, type Page, test } from './test.ts';

// Every wait is on a condition; the shared machine can take tens of seconds per step (PITFALLS.md).
const expect = baseExpect.configure({ timeout: 60_000 });

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots/reach';

async function signedIn(browser: Browser, session: Session, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ locale: 'ru-RU', viewport });
  const page = await context.newPage();
  await storeSessionBeforeLoad(page, session);
  return { context, page };
}

const bell = (page: Page) => page.getByRole('button', { name: /^Уведомления(, \d+)?$/ });

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
]) {
  test(`«Кто может добавлять меня»: «Никто» in settings, a group invitation in «Приглашения», accepted (${viewport.width})`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(300_000);
    const a = await registerViaApi(request, uniqueUsername('ra'), 'Анна');
    const b = await registerViaApi(request, uniqueUsername('rb'), 'Борис');
    const B = await signedIn(browser, b, viewport);

    // B: privacy settings, «Никто» for who may add them to groups and channels.
    await B.page.goto('/settings#privacy');
    const choice = B.page.getByRole('group', { name: 'Кто может добавлять меня в группы и каналы' });
    await choice.getByRole('radio', { name: 'Никто' }).check();
    await expect(choice.getByRole('radio', { name: 'Никто' })).toBeChecked();
    await choice.scrollIntoViewIfNeeded();
    await B.page.screenshot({ path: `${SHOTS}/settings-group-add-${viewport.width}.png` });

    // A makes a group with B: B is invited, not added.
    await expect
      .poll(async () => {
        const r = await request.post(apiUrl(groupsEndpoints.create), {
          headers: auth(a),
          data: { name: 'Походы', member_ids: [b.user.id] },
        });
        return r.ok() ? ((await r.json()) as { invited: number[] }).invited : r.status();
      })
      .toEqual([b.user.id]);

    // B sees it on the bell (the home screen's) and answers in the panel.
    await B.page.goto('/home');
    await expect(bell(B.page).getByTestId('context-badge')).toHaveText('1');
    await bell(B.page).click();
    const panel = B.page.getByRole('dialog', { name: 'Уведомления' });
    const invitations = panel.getByRole('region', { name: /Приглашения/ });
    await expect(invitations.getByText('Анна приглашает вас в группу «Походы»')).toBeVisible();
    await B.page.screenshot({ path: `${SHOTS}/invitations-${viewport.width}.png` });
    await invitations.getByRole('button', { name: 'Принять: Анна приглашает вас в группу «Походы»' }).click();
    await expect(invitations).toHaveCount(0);
    await B.page.keyboard.press('Escape');
    await B.page.goto('/messenger');
    await expect(B.page.getByTestId('chat-row').filter({ hasText: 'Походы' })).toBeVisible();
    await B.context.close();
  });
}
