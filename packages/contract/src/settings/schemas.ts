import { type Static, Type } from 'typebox';
import { Id, IsoDateTime, Nullable } from '../common.ts';
import { Limits } from '../limits.ts';
import { ChatTarget } from '../messenger/schemas.ts';
import { UserSummary } from '../users.ts';

/** Who may write to me / call me (spec §2.3 privacy). `following`: people I follow. */
export const ContactAudience = Type.Union([Type.Literal('everyone'), Type.Literal('following')]);
export type ContactAudience = Static<typeof ContactAudience>;
/** Who sees my last seen and online. */
export const PresenceAudience = Type.Union([
  Type.Literal('everyone'),
  Type.Literal('following'),
  Type.Literal('nobody'),
]);
export type PresenceAudience = Static<typeof PresenceAudience>;

/**
 * Who may add me to groups and channels (or make me a channel administrator) without asking: everyone,
 * people I follow, nobody. Anyone else's attempt becomes an invitation I accept or decline.
 */
export const AddAudience = Type.Union([
  Type.Literal('everyone'),
  Type.Literal('following'),
  Type.Literal('nobody'),
]);
export type AddAudience = Static<typeof AddAudience>;

/** Who may write to me: everyone, people I follow, or nobody («Писать: никто»). */
export const MessageAudience = Type.Union([
  Type.Literal('everyone'),
  Type.Literal('following'),
  Type.Literal('nobody'),
]);
export type MessageAudience = Static<typeof MessageAudience>;

export const PrivacySettings = Type.Object({
  messages: MessageAudience,
  last_seen: PresenceAudience,
  calls: ContactAudience,
  group_add: AddAudience,
  /** «Закрытый аккаунт»: following becomes a request; posts, stories and lists are for followers. */
  private_account: Type.Boolean(),
});
export type PrivacySettings = Static<typeof PrivacySettings>;

/** One kind of event the user hears about: inside the app and as a web push. */
export const NotifyChannels = Type.Object({ in_app: Type.Boolean(), push: Type.Boolean() });
export type NotifyChannels = Static<typeof NotifyChannels>;

export const NotificationTypes = Type.Object({
  message: NotifyChannels,
  call: NotifyChannels,
  like: NotifyChannels,
  comment: NotifyChannels,
  follow: NotifyChannels,
  repost: NotifyChannels,
  mention: NotifyChannels,
  reply: NotifyChannels,
});
export type NotificationTypes = Static<typeof NotificationTypes>;
export type NotificationKind = keyof NotificationTypes;

export const NotificationSettings = Type.Object({
  types: NotificationTypes,
  message_sounds: Type.Boolean(),
});
export type NotificationSettings = Static<typeof NotificationSettings>;

export const TextSize = Type.Union([Type.Literal('small'), Type.Literal('medium'), Type.Literal('large')]);
export type TextSize = Static<typeof TextSize>;
export const Theme = Type.Union([Type.Literal('light'), Type.Literal('dark'), Type.Literal('system')]);
export type Theme = Static<typeof Theme>;

export const ChatSettings = Type.Object({
  /** Desktop only: Enter sends, Shift+Enter breaks the line (off: Ctrl+Enter sends). */
  enter_sends: Type.Boolean(),
  reduced_badges: Type.Boolean(),
  text_size: TextSize,
  theme: Theme,
});
export type ChatSettings = Static<typeof ChatSettings>;

export const Settings = Type.Object({
  privacy: PrivacySettings,
  notifications: NotificationSettings,
  chat: ChatSettings,
});
export type Settings = Static<typeof Settings>;

const partial = <T extends Parameters<typeof Type.Partial>[0]>(schema: T) =>
  Type.Partial(schema, { additionalProperties: false });

/** `PATCH /settings`: any subset; what is named is stored, the rest stays. */
export const SettingsPatch = Type.Object(
  {
    privacy: Type.Optional(partial(PrivacySettings)),
    notifications: Type.Optional(
      Type.Object(
        {
          types: Type.Optional(
            Type.Partial(
              Type.Object({
                message: partial(NotifyChannels),
                call: partial(NotifyChannels),
                like: partial(NotifyChannels),
                comment: partial(NotifyChannels),
                follow: partial(NotifyChannels),
                repost: partial(NotifyChannels),
                mention: partial(NotifyChannels),
                reply: partial(NotifyChannels),
              }),
              { additionalProperties: false },
            ),
          ),
          message_sounds: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
    chat: Type.Optional(partial(ChatSettings)),
  },
  { additionalProperties: false },
);
export type SettingsPatch = Static<typeof SettingsPatch>;

export const ChangePasswordBody = Type.Object(
  {
    current_password: Type.String({ minLength: 1, maxLength: Limits.password.max }),
    new_password: Type.String({ maxLength: Limits.password.max }),
  },
  { additionalProperties: false },
);
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;
export const ChangePasswordResponse = Type.Object({
  /** How many other sessions were ended. */
  ended_sessions: Type.Integer(),
});

export const ActiveSession = Type.Object({
  id: Type.Integer(),
  user_agent: Nullable(Type.String()),
  created_at: IsoDateTime,
  last_used_at: IsoDateTime,
  /** The session this request came with. */
  is_current: Type.Boolean(),
  /** Web push is on for this session (its device gets notifications with the tab closed). */
  push: Type.Boolean(),
});
export type ActiveSession = Static<typeof ActiveSession>;
export const SessionsResponse = Type.Object({ sessions: Type.Array(ActiveSession) });
export type SessionsResponse = Static<typeof SessionsResponse>;
export const SessionIdParams = Type.Object({ id: Id });
export const SettingsOkResponse = Type.Object({ ok: Type.Literal(true) });

export const DeleteAccountBody = Type.Object(
  { password: Type.String({ minLength: 1, maxLength: Limits.password.max }) },
  { additionalProperties: false },
);

export const BlockedUsersResponse = Type.Object({ users: Type.Array(UserSummary) });
export type BlockedUsersResponse = Static<typeof BlockedUsersResponse>;
export const BlockUsernameParams = Type.Object({ username: Type.String({ minLength: 1, maxLength: 64 }) });
export const BlockStateResponse = Type.Object({ is_blocked: Type.Boolean() });
export type BlockStateResponse = Static<typeof BlockStateResponse>;

/** `1h`, `8h`, `forever`; `off` unmutes. */
export const MuteDuration = Type.Union([
  Type.Literal('1h'),
  Type.Literal('8h'),
  Type.Literal('forever'),
  Type.Literal('off'),
]);
export type MuteDuration = Static<typeof MuteDuration>;
export const MuteBody = Type.Object(
  { chat: ChatTarget, duration: MuteDuration },
  { additionalProperties: false },
);
export type MuteBody = Static<typeof MuteBody>;
export const ChatMute = Type.Object({
  chat: ChatTarget,
  /** Null: muted until unmuted. */
  muted_until: Nullable(IsoDateTime),
});
export type ChatMute = Static<typeof ChatMute>;
export const MuteResponse = Type.Object({ is_muted: Type.Boolean(), muted_until: Nullable(IsoDateTime) });
export type MuteResponse = Static<typeof MuteResponse>;
export const MutesResponse = Type.Object({ mutes: Type.Array(ChatMute) });
export type MutesResponse = Static<typeof MutesResponse>;

/** The application server key (VAPID public key, base64url) for `PushManager.subscribe`. */
export const PushKeyResponse = Type.Object({ public_key: Type.String() });
export const PushSubscriptionBody = Type.Object(
  {
    endpoint: Type.String({ minLength: 8, maxLength: 2048, pattern: '^https?://' }),
    keys: Type.Object({
      p256dh: Type.String({ minLength: 16, maxLength: 256 }),
      auth: Type.String({ minLength: 8, maxLength: 64 }),
    }),
  },
  { additionalProperties: false },
);
export type PushSubscriptionBody = Static<typeof PushSubscriptionBody>;
export const PushUnsubscribeBody = Type.Object(
  { endpoint: Type.String({ minLength: 8, maxLength: 2048 }) },
  { additionalProperties: false },
);

/** What a web push carries (JSON, encrypted aes128gcm); the service worker shows it. */
export interface PushPayload {
  /** message | call | like | comment | follow | repost | mention | reply */
  type: string;
  title: string;
  body: string;
  /** Where a click leads, e.g. '/messenger/anna' or '/media/42'. */
  url: string;
  /** Notifications with one tag replace each other (one per chat). */
  tag: string;
}
