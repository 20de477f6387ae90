import { searchRoutes } from '@kadr/contract/search/routes';
import { registerRoutes } from '../../lib/route.ts';
import { postReader } from '../media/post-reader.ts';
import { readRepository } from '../media/read-repository.ts';
import { toPost } from '../media/render.ts';
import { defineModule } from '../module.ts';
import { searchMigrations } from './migrations.ts';
import { searchRepository } from './repository.ts';
import { type SearchService, searchService } from './service.ts';
import './tables.ts';

declare module '../../app-types.ts' {
  interface ModuleServices {
    /** One search over people, posts, hashtags, rooms and messages, built for Russian. */
    search: SearchService;
  }
}

export const searchModule = defineModule({
  name: 'search',
  migrations: searchMigrations,
  async register(api, ctx) {
    const reader = postReader(readRepository(ctx.db.kysely), ctx.media.cache);
    const service = searchService({
      repo: searchRepository(ctx.db.kysely),
      limits: ctx.limits,
      posts: async (ids, viewerId) => (await reader.posts(ids, viewerId)).map(toPost),
    });
    registerRoutes(
      api,
      searchRoutes,
      {
        media: (req) => service.media(req.userId, req.query),
        messenger: (req) => service.messenger(req.userId, req.query),
        tag: (req) => service.tag(req.userId, req.params.tag, req.query),
        recent: (req) => service.recent(req.userId, req.query.scope),
        remember: (req) => service.remember(req.userId, req.body.scope, req.body.query),
        forget: (req) => service.forget(req.userId, req.query.scope),
      },
      { tag: 'search' },
    );
    ctx.search = service;
    return { services: service };
  },
});
