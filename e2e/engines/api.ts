import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { authEndpoints } from '@kadr/contract/auth/endpoints';
import { apiUrl, DATA_VERSION } from '@kadr/contract/browser';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import { messengerEndpoints } from '@kadr/contract/messenger/endpoints';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { settingsEndpoints } from '@kadr/contract/settings/endpoints';
import { storiesEndpoints } from '@kadr/contract/stories/endpoints';
import type { Page } from './driver.ts';

/**
 * What a flow arranges before the screen under test, through the HTTP API (the engines under test are the
 * browsers, not the setup). Processing waits are bounds on a condition: on this shared machine one photo
 * can take minutes (SCHED_IDLE, see e2e/helpers.ts).
 */
export const PASSWORD = 'secret-password-1';
export const MEDIA_PROCESSING_MS = 300_000;

export interface Session {
  access_token: string;
  user: { id: number; username: string; name: string };
}

/** A fresh valid username (3–32 of a–z, 0–9, _), its prefix naming the engine and the flow. */
export function uniqueUsername(prefix: string): string {
  const stamp = Date.now().toString(36);
  const random = Math.random().toString(36).slice(2, 7);
  return `${prefix}_${stamp}${random}`.slice(0, 32);
}

export class Api {
  readonly baseUrl: string;
  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  async request<R>(method: string, path: string, session?: Session, body?: object | FormData): Promise<R> {
    const headers: Record<string, string> = session
      ? { authorization: `Bearer ${session.access_token}` }
      : {};
    if (body && !(body instanceof FormData)) headers['content-type'] = 'application/json';
    const response = await fetch(new URL(path, this.baseUrl), {
      method,
      headers,
      ...(body ? { body: body instanceof FormData ? body : JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : null) as R;
  }

  register(username: string, name: string): Promise<Session> {
    return this.request('POST', apiUrl(authEndpoints.register), undefined, {
      username,
      name,
      password: PASSWORD,
    });
  }

  async follow(who: Session, whom: Session): Promise<void> {
    await this.request('POST', apiUrl(profileEndpoints.follow, { username: whom.user.username }), who);
  }

  async like(who: Session, postId: number): Promise<void> {
    await this.request('POST', apiUrl(mediaEndpoints.like, { id: postId }), who);
  }

  post(
    who: Session,
    id: number,
  ): Promise<{ post: { status: string; likes_count: number; is_liked?: boolean } }> {
    return this.request('GET', apiUrl(mediaEndpoints.post, { id }), who);
  }

  posts(
    who: Session,
  ): Promise<{ posts: { id: number; caption: string; status: string; media_type: string }[] }> {
    return this.request(
      'GET',
      apiUrl(mediaEndpoints.userPosts, { username: who.user.username }, { limit: 50 }),
      who,
    );
  }

  /**
   * Resolves once `to`'s open page has its socket in: a message sent now reaches that device live and the
   * server records it delivered. One is sent every few seconds, since a message sent before the socket
   * connected is only fetched, not acknowledged, by a page that stays on another screen.
   */
  async waitOnline(from: Session, to: Session, timeout = 60_000): Promise<void> {
    const deadline = Date.now() + timeout;
    for (let n = 1; ; n++) {
      await this.request('POST', apiUrl(messengerEndpoints.send), from, {
        other_user_id: to.user.id,
        content: `Проверка связи ${n}`,
        temp_id: `probe-${Date.now()}-${n}`,
      });
      const sent = Date.now();
      while (Date.now() - sent < 5_000) {
        const { messages } = await this.request<{ messages: { is_delivered: boolean }[] }>(
          'GET',
          apiUrl(messengerEndpoints.conversation, undefined, { other_user_id: to.user.id, limit: 5 }),
          from,
        );
        if (messages.some((m) => m.is_delivered)) return;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      if (Date.now() > deadline) throw new Error(`${to.user.username}'s page never came online`);
    }
  }

  settings(who: Session): Promise<{ privacy: { last_seen: string } }> {
    return this.request('GET', apiUrl(settingsEndpoints.get), who);
  }

  /** Uploads a photo or video post and waits until its processing is done; its id. */
  async mediaPost(author: Session, file: string, mime: string, caption: string): Promise<number> {
    const form = new FormData();
    form.set('files', new Blob([readFileSync(file)], { type: mime }), basename(file));
    form.set('caption', caption);
    form.set('media_type', mime.startsWith('video/') ? 'video' : 'photo');
    const { post } = await this.request<{ post: { id: number } }>(
      'POST',
      apiUrl(mediaEndpoints.upload),
      author,
      form,
    );
    await this.until(
      `post ${post.id} processed`,
      async () => (await this.post(author, post.id)).post.status === 'done',
    );
    return post.id;
  }

  /** Uploads a photo story and waits until others can see it (processing done); its id. */
  async story(author: Session, file: string, viewer: Session): Promise<number> {
    const form = new FormData();
    form.set('file', new Blob([readFileSync(file)], { type: 'image/jpeg' }), basename(file));
    form.set('media_type', 'photo');
    form.set('duration', '15');
    const { story } = await this.request<{ story: { id: number } }>(
      'POST',
      apiUrl(storiesEndpoints.upload),
      author,
      form,
    );
    await this.until(`story ${story.id} processed`, () =>
      this.request('GET', apiUrl(storiesEndpoints.get, { id: story.id }), viewer).then(
        () => true,
        () => false,
      ),
    );
    return story.id;
  }

  private async until(what: string, check: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + MEDIA_PROCESSING_MS;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`waited ${MEDIA_PROCESSING_MS} ms for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/**
 * Signs a page in the way the app itself keeps a session (current data version in localStorage), then
 * opens `path`: the flows other than sign-up test their screens, not the login form again.
 */
export async function signIn(page: Page, session: Session, path: string): Promise<void> {
  await page.goto('/login');
  await page.evaluate(
    (token: string, user: string, version: string) => {
      localStorage.setItem('dataVersion', version);
      localStorage.setItem('auth:accessToken', token);
      localStorage.setItem('auth:user', user);
    },
    session.access_token,
    JSON.stringify(session.user),
    DATA_VERSION,
  );
  await page.goto(path);
}
