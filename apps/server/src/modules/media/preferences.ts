import { ErrorCode, ErrorText, MEDIA_TAG_KEYS } from '@kadr/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { MediaChange } from './cache/feed-cache.ts';

const KNOWN = new Set<string>(MEDIA_TAG_KEYS);

/** The caller's tag blacklist: posts carrying one of these tags come back with is_filtered and rank last. */
export function preferencesService(db: Kysely<Database>, changed: (change: MediaChange) => Promise<void>) {
  async function list(userId: number) {
    const rows = await db
      .selectFrom('tag_blacklist')
      .select('tag')
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('tag')
      .execute();
    return { blacklist: rows.map((r) => ({ tag: r.tag })) };
  }
  return {
    list,
    async add(userId: number, tag: string) {
      if (!KNOWN.has(tag))
        throw new AppError(400, ErrorCode.validationFailed, ErrorText.unknownTag, {
          tag: ErrorText.unknownTag,
        });
      await db
        .insertInto('tag_blacklist')
        .values({ user_id: userId, tag })
        .onConflict((oc) => oc.doNothing())
        .execute();
      await changed({ viewers: [userId] });
      return list(userId);
    },
    async remove(userId: number, tag: string) {
      await db.deleteFrom('tag_blacklist').where('user_id', '=', userId).where('tag', '=', tag).execute();
      await changed({ viewers: [userId] });
      return list(userId);
    },
  };
}

export type PreferencesService = ReturnType<typeof preferencesService>;
