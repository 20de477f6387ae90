import { createElement, lazy } from 'react';
import { Route } from 'react-router';
import { defineFeature } from '../../app/feature.ts';
import { messengerKeys } from '../messenger/api/messenger-keys.ts';
import { command, type ShellEntry } from '../shell/lib/nav-config.ts';
import { groupsKeys } from './api/groups-api.ts';
import { GroupsHost } from './components/GroupsHost.tsx';
import { useGroupsUi } from './store/groups-ui.ts';
import { groupsStrings } from './strings.ts';

/**
 * A link to a group or channel opens, for a member, its chat in the messenger: the preview learns that and
 * sends them on. The messenger's view and the room's window start loading beside the preview's code, not one
 * after the other once each has rendered (three round trips of code in series on a phone's network).
 */
function previewPage<K extends 'GroupInvitePage' | 'GroupSlugPage' | 'ChannelPreviewPage'>(name: K) {
  return lazy(() => {
    import('../messenger/components/MessengerView.tsx')
      .then((m) => m.preloadRoomChat())
      .catch(() => undefined); // loaded again, and a failure shown, where they render
    return import('./components/PreviewPage.tsx').then((m) => ({ default: m[name] }));
  });
}

const GroupInvitePage = previewPage('GroupInvitePage');
const GroupSlugPage = previewPage('GroupSlugPage');
const ChannelPreviewPage = previewPage('ChannelPreviewPage');

const E = groupsStrings;

/** The messenger page menu's create entries (spec §2.2), present because this feature is registered. */
const shellEntries: readonly ShellEntry[] = [
  {
    id: 'create-group',
    label: E.createGroup,
    section: 'messenger',
    place: 'menu',
    order: 10,
    action: command('messenger.createGroup'),
  },
  {
    id: 'create-channel',
    label: E.createChannel,
    section: 'messenger',
    place: 'menu',
    order: 11,
    action: command('messenger.createChannel'),
  },
];

/**
 * Groups and channels on the web (one feature: the UI is shared). Their chats render inside the
 * messenger (RoomChatWindow); this manifest adds the create modals, the previews and the events.
 */
export const groupsFeature = defineFeature({
  name: 'groups',
  routes: [
    createElement(Route, {
      key: 'group-invite',
      path: 'messenger/invite/:token',
      element: createElement(GroupInvitePage),
    }),
    createElement(Route, {
      key: 'group-preview',
      path: 'messenger/group/:slug',
      element: createElement(GroupSlugPage),
    }),
    createElement(Route, {
      key: 'channel-preview',
      path: 'messenger/channel/:slug',
      element: createElement(ChannelPreviewPage),
    }),
  ],
  hosts: [GroupsHost],
  shellEntries,
  realtime: async () => (socket, queryClient, currentUserId) => {
    const onTyping = (event: {
      type: string;
      group_id?: number;
      sender_id: number;
      sender_name?: string;
      data: { is_typing: boolean };
    }) => {
      if (event.type !== 'group-typing' || event.group_id === undefined) return;
      if (event.sender_id === currentUserId()) return;
      useGroupsUi.getState().setTyping(event.group_id, event.sender_name ?? '', event.data.is_typing);
    };
    const refresh = () => {
      void queryClient.invalidateQueries({ queryKey: messengerKeys.chats() });
      void queryClient.invalidateQueries({ queryKey: groupsKeys.all });
    };
    socket.on('typing', onTyping);
    socket.on('group-updated', refresh);
    socket.on('channel-updated', refresh);
    return () => {
      socket.off('typing', onTyping);
      socket.off('group-updated', refresh);
      socket.off('channel-updated', refresh);
    };
  },
});
