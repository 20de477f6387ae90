import {
  type AuditEntry,
  type AuditResponse,
  ErrorCode,
  ErrorText,
  type ItemActionBody,
  type ModerationItem,
  type ModerationNotice,
  type ModerationUser,
  type QueueResponse,
  type ReportBody,
  rooms,
} from '@kadr/contract';
import { AppError, errors } from '../../lib/errors.ts';
import type { RateLimits } from '../../lib/limits.ts';
import type { Gateway } from '../../realtime/gateway.ts';
import type { ItemRow, ModerationRepository } from './repository.ts';
import type { Suspensions } from './suspensions.ts';
import type { TargetRegistry } from './targets/registry.ts';
import { noticeText } from './texts.ts';

const DAY_MS = 24 * 60 * 60_000;

const invalid = (text: string) => new AppError(400, ErrorCode.moderationActionInvalid, text);

/** Reports, the queue, actions with their audit entries, the role, and the reporters' notices. */
export function moderationService(deps: {
  repo: ModerationRepository;
  targets: TargetRegistry;
  suspensions: Suspensions;
  gateway: Gateway;
  limits: RateLimits;
  /** Usernames named by MODERATOR_USERNAMES, lower-case. */
  configured: readonly string[];
  endStream: (id: number) => Promise<boolean>;
}) {
  const { repo, targets, suspensions, gateway, limits } = deps;
  const configured = new Set(deps.configured);

  async function isModerator(userId: number): Promise<boolean> {
    const role = await repo.roleOf(userId);
    return role !== undefined && (role.granted || configured.has(role.username.toLowerCase()));
  }

  async function requireModerator(userId: number): Promise<void> {
    if (!(await isModerator(userId))) throw errors.forbidden(ErrorText.notModerator);
  }

  const toUser = (u: {
    id: number;
    username: string;
    name: string;
    avatar_url: string | null;
  }): ModerationUser => ({
    id: u.id,
    username: u.username,
    name: u.name,
    avatar_url: u.avatar_url,
  });

  async function present(rows: ItemRow[]): Promise<ModerationItem[]> {
    const authorIds = [...new Set(rows.flatMap((r) => (r.author_id === null ? [] : [r.author_id])))];
    const [users, suspended, reports] = await Promise.all([
      repo.users(authorIds),
      repo.suspensions(authorIds),
      repo.reasons(rows.map((r) => r.id)),
    ]);
    const out: ModerationItem[] = [];
    for (const row of rows) {
      const author = users.find((u) => u.id === row.author_id);
      const suspension = suspended.find((s) => s.user_id === row.author_id);
      const own = reports.filter((r) => r.item_id === row.id);
      const counts = new Map<string, number>();
      for (const r of own) counts.set(r.reason, (counts.get(r.reason) ?? 0) + 1);
      const resolver = targets[row.kind];
      const removed = (await repo.removals(row.kind, [row.target_id])).length > 0;
      out.push({
        id: row.id,
        kind: row.kind,
        target_id: row.target_id,
        status: row.status,
        author: author ? toUser(author) : null,
        preview: await resolver.preview(row.target_id),
        reports_count: row.reports_count,
        reasons: [...counts].map(([reason, count]) => ({
          reason: reason as ModerationItem['reasons'][number]['reason'],
          count,
        })),
        comments: own.flatMap((r) => (r.comment ? [r.comment] : [])).slice(0, 5),
        last_reported_at: row.last_reported_at.toISOString(),
        removed,
        author_suspended: suspension !== undefined,
        author_suspended_until: suspension?.until ? suspension.until.toISOString() : null,
        removable: resolver.remove !== undefined,
      });
    }
    return out;
  }

  function queueChanged(itemId: number) {
    gateway.io.to(rooms.moderators).emit('moderation-queue-changed', { item_id: itemId });
  }

  async function notifyReporters(row: ItemRow, action: 'remove' | 'suspend') {
    const text = noticeText(row.kind, action);
    for (const userId of await repo.reporters(row.kind, row.target_id)) {
      const notice = await repo.addNotice(userId, row.kind, text);
      gateway.emitToUser(userId, 'moderation-notice', {
        id: notice.id,
        kind: notice.kind,
        text: notice.text,
        created_at: notice.created_at.toISOString(),
        is_read: false,
      });
    }
  }

  return {
    isModerator,
    requireModerator,

    async report(reporterId: number, body: ReportBody): Promise<{ reported: true }> {
      const resolver = targets[body.kind];
      const seen = await resolver.visibleTo(body.target_id, reporterId);
      if (!seen) throw errors.notFound(ErrorText.reportTargetNotFound);
      if (seen.authorId === reporterId)
        throw new AppError(400, ErrorCode.cannotReportOwn, ErrorText.cannotReportOwn);
      await limits.consume('moderation.report', { user: reporterId });
      const itemId = await repo.transaction((trx) =>
        repo.addReport(trx, {
          kind: body.kind,
          targetId: body.target_id,
          authorId: seen.authorId,
          reporterId,
          reason: body.reason,
          comment: body.comment?.trim() ?? '',
        }),
      );
      if (itemId === null) throw errors.conflict(ErrorCode.alreadyReported, ErrorText.alreadyReported);
      await resolver.hideFor?.(body.target_id, reporterId, body.reason);
      queueChanged(itemId);
      return { reported: true };
    },

    async queue(
      userId: number,
      status: 'open' | 'closed',
      offset: number,
      limit: number,
    ): Promise<QueueResponse> {
      await requireModerator(userId);
      const rows = await repo.queue(status, offset, limit + 1);
      return { items: await present(rows.slice(0, limit)), has_more: rows.length > limit };
    },

    async act(moderatorId: number, itemId: number, body: ItemActionBody): Promise<{ item: ModerationItem }> {
      await requireModerator(moderatorId);
      const row = await repo.item(itemId);
      if (!row) throw errors.notFound(ErrorText.moderationItemNotFound);
      const resolver = targets[row.kind];
      const reason = body.reason?.trim() ?? '';
      const audit = {
        moderatorId,
        kind: row.kind,
        targetId: row.target_id,
        itemId,
        subjectId: row.author_id,
        reason,
      };
      switch (body.action) {
        case 'dismiss':
          if (row.status !== 'open') throw invalid(ErrorText.moderationActionInvalid);
          await repo.close(itemId, 'dismissed');
          await repo.audit({ ...audit, action: 'dismiss' });
          break;
        case 'remove': {
          if (!resolver.remove) throw invalid(ErrorText.moderationCannotRemove);
          const snapshot = await resolver.remove(row.target_id, moderatorId);
          if (snapshot === null) throw errors.notFound(ErrorText.reportTargetNotFound);
          await repo.keepRemoval(row.kind, row.target_id, snapshot, moderatorId);
          await repo.close(itemId, 'actioned');
          await repo.audit({ ...audit, action: 'remove' });
          await notifyReporters(row, 'remove');
          break;
        }
        case 'restore': {
          const removal = await repo.dropRemoval(row.kind, row.target_id);
          if (!removal || !resolver.restore) throw invalid(ErrorText.moderationNothingToRestore);
          await resolver.restore(row.target_id, (removal.snapshot ?? {}) as Record<string, unknown>);
          await repo.audit({ ...audit, action: 'restore' });
          break;
        }
        case 'suspend': {
          if (row.author_id === null) throw invalid(ErrorText.moderationNoAuthor);
          if (row.author_id === moderatorId) throw invalid(ErrorText.moderationSelf);
          const until = body.days ? new Date(Date.now() + body.days * DAY_MS) : null;
          await suspensions.suspend(row.author_id, until, reason, moderatorId);
          await repo.close(itemId, 'actioned');
          await repo.audit({ ...audit, action: 'suspend', until });
          await notifyReporters(row, 'suspend');
          break;
        }
        case 'unsuspend': {
          if (row.author_id === null || !(await suspensions.lift(row.author_id)))
            throw invalid(ErrorText.moderationNothingToRestore);
          await repo.audit({ ...audit, action: 'unsuspend' });
          break;
        }
      }
      queueChanged(itemId);
      const [item] = await present([(await repo.item(itemId)) as ItemRow]);
      return { item: item as ModerationItem };
    },

    async endStream(moderatorId: number, streamId: number, reason: string): Promise<{ ended: true }> {
      await requireModerator(moderatorId);
      if (!(await deps.endStream(streamId))) throw errors.notFound(ErrorText.streamNotLive);
      await repo.audit({ moderatorId, action: 'end_stream', targetId: streamId, reason: reason.trim() });
      return { ended: true };
    },

    async audit(userId: number, offset: number, limit: number): Promise<AuditResponse> {
      await requireModerator(userId);
      const rows = await repo.auditPage(offset, limit + 1);
      const page = rows.slice(0, limit);
      const ids = [
        ...new Set(
          page.flatMap((r) => [r.moderator_id, r.subject_id]).filter((id): id is number => id !== null),
        ),
      ];
      const users = await repo.users(ids);
      const user = (id: number | null) => {
        const found = users.find((u) => u.id === id);
        return found ? toUser(found) : null;
      };
      const entries: AuditEntry[] = page.map((r) => ({
        id: r.id,
        moderator: user(r.moderator_id),
        action: r.action as AuditEntry['action'],
        kind: r.kind,
        target_id: r.target_id,
        subject: user(r.subject_id),
        reason: r.reason,
        until: r.until ? r.until.toISOString() : null,
        created_at: r.created_at.toISOString(),
      }));
      return { entries, has_more: rows.length > limit };
    },

    async moderators(userId: number) {
      await requireModerator(userId);
      const [granted, fromConfig] = await Promise.all([repo.granted(), repo.usersByNames([...configured])]);
      return {
        moderators: [
          ...fromConfig.map((u) => ({ user: toUser(u), source: 'config' as const })),
          ...granted
            .filter((g) => !fromConfig.some((c) => c.id === g.id))
            .map((u) => ({ user: toUser(u), source: 'granted' as const })),
        ],
      };
    },

    async grant(moderatorId: number, username: string) {
      await requireModerator(moderatorId);
      const user = await repo.userByName(username.trim().replace(/^@/, ''));
      if (!user) throw errors.notFound(ErrorText.userNotFound);
      await repo.grant(user.id, moderatorId);
      await repo.audit({ moderatorId, action: 'grant', subjectId: user.id });
      return { user: toUser(user) };
    },

    async notices(userId: number): Promise<{ notices: ModerationNotice[] }> {
      const rows = await repo.notices(userId);
      return {
        notices: rows.map((r) => ({
          id: r.id,
          kind: r.kind,
          text: r.text,
          created_at: r.created_at.toISOString(),
          is_read: r.read_at !== null,
        })),
      };
    },

    async readNotices(userId: number) {
      await repo.readNotices(userId);
      return { ok: true as const };
    },
  };
}

export type ModerationService = ReturnType<typeof moderationService>;
