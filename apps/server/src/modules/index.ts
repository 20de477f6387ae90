import type { Migration } from 'kysely/migration';
import { authModule } from './auth/module.ts';
import { callsModule } from './calls/module.ts';
import { channelsModule } from './channels/module.ts';
import { demoModule } from './demo/module.ts';
import { groupsModule } from './groups/module.ts';
import { healthModule } from './health/module.ts';
import { invitationsModule } from './invitations/module.ts';
import { livekitModule } from './livekit/module.ts';
import { livestreamsModule } from './livestreams/module.ts';
import { mediaModule } from './media/module.ts';
import { mediaPipelineModule } from './media/pipeline-module.ts';
import { messengerModule } from './messenger/module.ts';
import { moderationModule } from './moderation/module.ts';
import type { ServerModule } from './module.ts';
import { notificationsModule } from './notifications/module.ts';
import { profileModule } from './profile/module.ts';
import { searchModule } from './search/module.ts';
import { sessionsModule } from './sessions/module.ts';
import { settingsModule } from './settings/module.ts';
import { storiesModule } from './stories/module.ts';
import { voiceModule } from './voice/module.ts';

/**
 * The one list of capability modules built by app.ts, in order: a module may use the services of
 * those before it. Adding a capability: its folders, one line here, one in apps/web/src/app/features.ts.
 */
export const serverModules: readonly ServerModule[] = [
  authModule,
  sessionsModule,
  profileModule,
  settingsModule,
  invitationsModule,
  livekitModule,
  healthModule,
  mediaModule,
  mediaPipelineModule,
  messengerModule,
  storiesModule,
  groupsModule,
  channelsModule,
  livestreamsModule,
  callsModule,
  voiceModule,
  notificationsModule,
  moderationModule,
  searchModule,
  demoModule,
];

/** Every module's migrations, for the migrator (app start and the test databases). */
export function moduleMigrations(
  modules: readonly ServerModule[] = serverModules,
): Record<string, Migration> {
  const all: Record<string, Migration> = {};
  for (const module of modules) {
    for (const [name, migration] of Object.entries(module.migrations ?? {})) {
      if (name in all) throw new Error(`Migration ${name} is declared by two modules`);
      all[name] = migration;
    }
  }
  return all;
}
