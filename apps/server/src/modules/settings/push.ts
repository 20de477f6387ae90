import { ErrorText, type Message, type PushPayload, rooms } from '@kadr/contract';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import type { Bus } from '../../lib/bus.ts';
import { errors } from '../../lib/errors.ts';
import type { Events } from '../../lib/events.ts';
import { checkOutbound, type OutboundPolicy, OutboundRefused, outboundRequest } from '../../lib/outbound.ts';
import type { Gateway } from '../../realtime/gateway.ts';
import type { PrivacyLookups } from './privacy.ts';
import { pushRecipients } from './push-recipients.ts';
import type { SettingsRepository } from './repository.ts';

const PREVIEW_CHARS = 100;
const MENTION = /@([A-Za-z0-9_]{3,32})/g;

/** Subscriptions kept per user: a new one past this replaces the oldest. */
export const MAX_PUSH_SUBSCRIPTIONS = 10;

export function mentionedUsernames(text: string): Set<string> {
  return new Set([...text.matchAll(MENTION)].map((m) => (m[1] as string).toLowerCase()));
}

function preview(message: Message): string {
  const text = message.content.trim();
  if (text !== '') return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
  if (message.files.length > 0) return 'Вложение';
  return 'Новое сообщение';
}

/**
 * Web push with the tab closed: VAPID keys from config or generated once and kept in the database; a
 * message, a call or a notification is pushed to each subscription of a user with no connected socket
 * (any node: the presence store). The payload is encrypted (aes128gcm, RFC 8291) by `web-push`; the POST
 * is ours (lib/outbound.ts): the endpoint must still resolve to a public address, the request goes to the
 * address checked, a redirect is a failed delivery, and a 404/410 or an endpoint no longer allowed deletes
 * the subscription.
 */
export async function pushService(deps: {
  repo: SettingsRepository;
  privacy: PrivacyLookups;
  gateway: Gateway;
  events: Events;
  /** Carries the push recipients' invalidations to every node. */
  bus: Bus;
  config: {
    vapidPublicKey: string | null;
    vapidPrivateKey: string | null;
    vapidSubject: string;
    allowInsecureEndpoints: boolean;
  };
  log: FastifyBaseLogger;
}) {
  const { repo, privacy, gateway, log } = deps;
  const outbound: OutboundPolicy = { allowInsecure: deps.config.allowInsecureEndpoints };
  let keys: { public_key: string; private_key: string };
  if (deps.config.vapidPublicKey && deps.config.vapidPrivateKey)
    keys = { public_key: deps.config.vapidPublicKey, private_key: deps.config.vapidPrivateKey };
  else {
    const stored = await repo.pushKeys();
    if (stored) keys = stored;
    else {
      const fresh = webpush.generateVAPIDKeys();
      keys = await repo.storePushKeys(fresh.publicKey, fresh.privateKey);
    }
  }
  const vapid = {
    subject: deps.config.vapidSubject,
    publicKey: keys.public_key,
    privateKey: keys.private_key,
  };

  // Members of each group and channel with a subscription, kept per node (see push-recipients.ts).
  const roomRecipients = await pushRecipients(deps.bus, (id) => repo.subscribedMemberIds(id));

  async function drop(subscriptionId: number) {
    await repo.dropSubscription(subscriptionId);
    await roomRecipients.subscriptionsChanged();
  }

  /** Sends to every subscription of the users; answers how many pushes the services accepted. */
  async function send(userIds: number[], payload: PushPayload): Promise<number> {
    if (userIds.length === 0) return 0;
    const subs = await repo.subscriptions(userIds);
    let accepted = 0;
    await Promise.all(
      subs.map(async (sub) => {
        try {
          const details = webpush.generateRequestDetails(
            { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
            JSON.stringify(payload),
            { vapidDetails: vapid, TTL: 24 * 3600, contentEncoding: 'aes128gcm', urgency: 'high' },
          );
          const res = await outboundRequest(
            details.endpoint,
            {
              method: details.method,
              headers: details.headers as Record<string, string>,
              body: details.body ? new Uint8Array(details.body) : null,
              timeoutMs: 10_000,
            },
            outbound,
          );
          if (res.status === 404 || res.status === 410) await drop(sub.id);
          else if (res.status >= 200 && res.status < 300) accepted += 1;
          else if (res.status >= 300 && res.status < 400)
            log.warn({ status: res.status }, 'push service redirected; not followed');
          else log.warn({ status: res.status }, 'push service refused a notification');
        } catch (err) {
          // An endpoint that now resolves to an address we refuse will not become a push service again.
          if (err instanceof OutboundRefused) {
            log.warn({ reason: err.message }, 'push endpoint refused at send; subscription deleted');
            await drop(sub.id);
          } else log.warn({ err }, 'push delivery failed');
        }
      }),
    );
    return accepted;
  }

  /**
   * Of `userIds`, those with no socket on any node. A socket on this node answers without the presence
   * store (a Redis round trip with several nodes): most messages go to someone online.
   */
  async function offlineAmong(userIds: number[]): Promise<number[]> {
    const here = gateway.io.sockets.adapter.rooms;
    const elsewhere = userIds.filter((id) => !here.has(rooms.user(id)));
    if (elsewhere.length === 0) return [];
    const online = new Set(await gateway.onlineAmong(elsewhere));
    return elsewhere.filter((id) => !online.has(id));
  }

  /** Of `userIds`, those who have push on for `type` (cached settings). */
  async function wanting(userIds: number[], type: 'message' | 'call' | string): Promise<number[]> {
    const out: number[] = [];
    for (const id of userIds) {
      const types = (await privacy.settingsOf(id)).notifications.types as Record<
        string,
        { push: boolean } | undefined
      >;
      if (types[type]?.push === false) continue;
      out.push(id);
    }
    return out;
  }

  /** Of `userIds`, those with no socket on any node who have push on for `type`. */
  const offlineWanting = async (userIds: number[], type: 'message' | 'call' | string) =>
    wanting(await offlineAmong(userIds), type);

  // Every message passes here: whoever is online gets it over the socket, so nothing is looked up for
  // them (neither mutes nor names); a group's subscribed members come from the per-node cache.
  deps.events.on('message.created', async ({ conversation, message }) => {
    if (message.message_type === 'call') return;
    let recipients: number[];
    if (conversation.type === 'personal')
      recipients = [conversation.user_low, conversation.user_high].filter(
        (id): id is number => id !== null && id !== message.sender_id,
      );
    else if (conversation.type === 'group' || conversation.type === 'channel')
      recipients = (await roomRecipients.of(conversation.id)).filter((id) => id !== message.sender_id);
    else return;
    recipients = await offlineAmong(recipients);
    // A group both stay in after a block: the blocker (and the blocked) get no push of the other's lines.
    const sender = message.sender_id;
    const open: number[] = [];
    for (const id of recipients)
      if (!(await privacy.isBlocked(id, sender)) && !(await privacy.isBlocked(sender, id))) open.push(id);
    recipients = open;
    // Mentioned members hear it through their 'mention' notification (pushed even in a muted chat).
    const mentioned = mentionedUsernames(message.content);
    if (mentioned.size > 0 && recipients.length > 0) {
      const names = await repo.usernamesOf(recipients);
      recipients = recipients.filter((id) => !mentioned.has((names.get(id) ?? '').toLowerCase()));
    }
    if (recipients.length === 0) return;
    const muted = await repo.mutedAmong(conversation.id, recipients);
    const targets = await wanting(
      recipients.filter((id) => !muted.has(id)),
      'message',
    );
    if (targets.length === 0) return;
    const url =
      conversation.type === 'personal'
        ? `/messenger/${message.sender_username}`
        : `/messenger?${conversation.type}=${conversation.id}`;
    await send(targets, {
      type: 'message',
      title: message.sender_name,
      body: preview(message),
      url,
      tag: `chat-${conversation.id}`,
    });
  });

  deps.events.on('notification.created', async (n) => {
    const targets = await offlineWanting([n.userId], n.type);
    await send(targets, {
      type: n.type,
      title: 'Кадр',
      body: n.text,
      url: n.url,
      // Not stored: repeats of one kind on one target replace each other on the device.
      tag: n.notificationId === null ? `n-${n.type}-${n.url}` : `n-${n.notificationId}`,
    });
  });

  // A device whose session ended (logout, a lost phone ended from the sessions list) gets no more
  // previews. After the fact like every domain event: a push already being sent may still arrive.
  deps.events.on('auth.sessions-ended', async ({ tokenHashes }) => {
    if ((await repo.dropSessionSubscriptions(tokenHashes)) > 0) await roomRecipients.subscriptionsChanged();
  });

  deps.events.on('call.incoming', async (c) => {
    const targets = await offlineWanting([c.calleeId], 'call');
    await send(targets, {
      type: 'call',
      title: c.callerName,
      body: c.video ? 'Входящий видеозвонок' : 'Входящий звонок',
      url: '/messenger',
      tag: `call-${c.callId}`,
    });
  });

  return {
    publicKey: keys.public_key,
    send,
    /** `sessionId`: the subscribing session (`ctx.auth.sessionId`); its end deletes the subscription. */
    async subscribe(userId: number, sessionId: string, endpoint: string, p256dh: string, auth: string) {
      try {
        await checkOutbound(endpoint, outbound);
      } catch (err) {
        if (!(err instanceof OutboundRefused)) throw err;
        throw errors.validation(
          { endpoint: ErrorText.pushSubscriptionInvalid },
          ErrorText.pushSubscriptionInvalid,
        );
      }
      await repo.subscribe(userId, sessionId, endpoint, p256dh, auth, MAX_PUSH_SUBSCRIPTIONS);
      await roomRecipients.subscriptionsChanged();
    },
    async unsubscribe(userId: number, endpoint: string) {
      await repo.unsubscribe(userId, endpoint);
      await roomRecipients.subscriptionsChanged();
    },
    /** A group's or channel's members or rights changed (committed): its push recipients are read again. */
    roomChanged: (conversationId: number) => roomRecipients.roomChanged(conversationId),
  };
}

export type PushService = Awaited<ReturnType<typeof pushService>>;
