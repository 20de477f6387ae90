import type { Notification, NotificationsResponse, UrlQuery } from '@kadr/contract';
import { apiUrl, notificationsRoutes } from '@kadr/contract';
import { sql } from 'kysely';
import type { App } from '../src/app-types.ts';
import type { Db } from '../src/db/database.ts';
import { bearer } from './helpers.ts';

/** A finished photo post inserted directly (the notification suites test reactions, not the pipeline). */
export async function seedPost(db: Db, userId: number, caption = ''): Promise<number> {
  const { rows } = await sql<{ id: number }>`
    insert into posts (user_id, caption, media_type, status) values (${userId}, ${caption}, 'photo', 'done')
    returning id`.execute(db.kysely);
  const id = rows[0]!.id;
  await sql`insert into post_files (post_id, position, file_type, file_url, thumbnail_url)
    values (${id}, 0, 'image', ${`/media/p/${id}.webp`}, ${`/media/p/${id}-t.webp`})`.execute(db.kysely);
  return id;
}

/** Requests as a user, and the notifications as they see them; every call waits for the event listeners. */
export function notificationsApi(app: App) {
  const call = async (
    token: string,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) => {
    const res = await app.inject({
      method,
      url,
      headers: bearer(token),
      ...(payload ? { payload } : {}),
    });
    await app.ctx.events.idle();
    return res;
  };
  return {
    call,
    async list(token: string, query?: UrlQuery): Promise<NotificationsResponse> {
      const res = await call(token, 'GET', apiUrl(notificationsRoutes.list, undefined, query));
      if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
      return res.json() as NotificationsResponse;
    },
    async items(token: string): Promise<Notification[]> {
      const page = await this.list(token, { limit: 100 });
      return page.groups.flatMap((g) => g.items).sort((a, b) => b.id - a.id);
    },
  };
}
