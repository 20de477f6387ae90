import type { AuditEntry, ItemActionBody, ModerationItem } from '@kadr/contract';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../shared/api/client.ts';
import { Button } from '../../../shared/ui/Button.tsx';
import pageStyles from '../../../shared/ui/Page.module.css';
import { PageHeader } from '../../../shared/ui/PageHeader.tsx';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { TextField } from '../../../shared/ui/TextField.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import {
  useAudit,
  useEndStream,
  useGrant,
  useItemAction,
  useModerationMe,
  useModerators,
  useQueue,
} from '../api/moderation-queries.ts';
import { useWatchQueue } from '../hooks/use-watch-queue.ts';
import styles from './Moderation.module.css';
import { moderationStrings as s } from './strings.ts';

type Tab = 'queue' | 'closed' | 'audit' | 'moderators';
const TABS: readonly Tab[] = ['queue', 'closed', 'audit', 'moderators'];

/** `/moderation`: the queue grouped by item, what was dealt with, the audit log and the moderators. */
export default function ModerationScreen() {
  const me = useModerationMe();
  const [tab, setTab] = useState<Tab>('queue');
  const allowed = me.data?.is_moderator === true;
  useWatchQueue(allowed);
  const tabsId = useId();

  return (
    <main className={`${pageStyles.page} ${styles.page}`}>
      <PageHeader title={s.title} />
      {me.isPending ? (
        <p className={styles.muted}>{s.loading}</p>
      ) : !allowed ? (
        <p className={styles.muted} role="alert">
          {s.onlyModerators}
        </p>
      ) : (
        <>
          <div className={styles.tabs} role="tablist" aria-label={s.tabsLabel}>
            {TABS.map((t) => (
              <button
                key={t}
                type="button"
                role="tab"
                id={`${tabsId}-${t}`}
                aria-selected={tab === t}
                aria-controls={`${tabsId}-panel`}
                className={tab === t ? styles.tabActive : styles.tab}
                onClick={() => setTab(t)}
              >
                {s.tabs[t]}
              </button>
            ))}
          </div>
          <section
            id={`${tabsId}-panel`}
            role="tabpanel"
            aria-labelledby={`${tabsId}-${tab}`}
            className={styles.panel}
          >
            {tab === 'queue' || tab === 'closed' ? (
              <Queue status={tab === 'queue' ? 'open' : 'closed'} />
            ) : null}
            {tab === 'audit' ? <Audit /> : null}
            {tab === 'moderators' ? <Moderators /> : null}
          </section>
        </>
      )}
    </main>
  );
}

function Queue({ status }: { status: 'open' | 'closed' }) {
  const queue = useQueue(status, true);
  if (queue.isPending) return <p className={styles.muted}>{s.loading}</p>;
  if (queue.isError)
    return (
      <p className={styles.muted}>
        {s.loadFailed} <Button onClick={() => void queue.refetch()}>{s.retry}</Button>
      </p>
    );
  if (queue.data.items.length === 0)
    return <p className={styles.muted}>{status === 'open' ? s.emptyQueue : s.emptyClosed}</p>;
  return (
    <ul className={styles.items}>
      {queue.data.items.map((item) => (
        <li key={item.id}>
          <ItemCard item={item} />
        </li>
      ))}
    </ul>
  );
}

function ItemCard({ item }: { item: ModerationItem }) {
  const action = useItemAction();
  const [suspending, setSuspending] = useState(false);
  const headingId = useId();
  const run = (body: ItemActionBody) =>
    action.mutate(
      { id: item.id, body },
      {
        onSuccess: () => showToast(s.done),
        onError: (error) => showToast(s.actionFailed(errorMessage(error))),
      },
    );
  const preview = item.preview;
  return (
    <article className={styles.card} aria-labelledby={headingId}>
      <header className={styles.cardHead}>
        <h2 id={headingId} className={styles.cardTitle}>
          {preview?.title ?? s.kind(item.kind)}
        </h2>
        <span className={styles.count}>{s.reportsCount(item.reports_count)}</span>
      </header>
      {item.author ? (
        <p className={styles.muted}>{s.author(item.author.name, item.author.username)}</p>
      ) : null}
      <div className={styles.badges}>
        {item.removed ? <span className={styles.badge}>{s.removedBadge}</span> : null}
        {item.author_suspended ? (
          <span className={styles.badge}>{s.suspendedBadge(item.author_suspended_until)}</span>
        ) : null}
      </div>
      {preview ? (
        <div className={styles.preview}>
          {preview.image_url ? (
            <img
              src={preview.image_url}
              alt=""
              width={320}
              height={240}
              className={styles.image}
              loading="lazy"
            />
          ) : null}
          {preview.context.length > 0 ? (
            <ol className={styles.context} aria-label={s.contextLabel}>
              {preview.context.map((line, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a fixed snapshot of neighbours, never reordered
                <li key={`${i}-${line.author}`} className={line.reported ? styles.reportedLine : undefined}>
                  <strong>{line.author}: </strong>
                  {line.text}
                </li>
              ))}
            </ol>
          ) : preview.text ? (
            <p className={styles.text}>{preview.text}</p>
          ) : null}
          {preview.url ? (
            <Link to={preview.url} className={styles.link}>
              {s.open}
            </Link>
          ) : null}
        </div>
      ) : (
        <p className={styles.muted}>{s.gone}</p>
      )}
      <ul className={styles.reasonsList}>
        {item.reasons.map((r) => (
          <li key={r.reason}>{s.reasonCount(s.reasons[r.reason], r.count)}</li>
        ))}
      </ul>
      {item.comments.length > 0 ? (
        <details className={styles.comments}>
          <summary>{s.comments}</summary>
          <ul>
            {item.comments.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the reporters' comments as stored, never reordered
              <li key={`${i}-${c}`}>{c}</li>
            ))}
          </ul>
        </details>
      ) : null}
      <div className={styles.actions}>
        {item.status === 'open' ? (
          <Button variant="secondary" disabled={action.isPending} onClick={() => run({ action: 'dismiss' })}>
            {s.dismiss}
          </Button>
        ) : null}
        {item.removable && !item.removed && preview ? (
          <Button variant="danger" disabled={action.isPending} onClick={() => run({ action: 'remove' })}>
            {s.remove}
          </Button>
        ) : null}
        {item.removed ? (
          <Button variant="secondary" disabled={action.isPending} onClick={() => run({ action: 'restore' })}>
            {s.restore}
          </Button>
        ) : null}
        {item.author && !item.author_suspended ? (
          <Button variant="danger" disabled={action.isPending} onClick={() => setSuspending(true)}>
            {s.suspend}
          </Button>
        ) : null}
        {item.author_suspended ? (
          <Button
            variant="secondary"
            disabled={action.isPending}
            onClick={() => run({ action: 'unsuspend' })}
          >
            {s.unsuspend}
          </Button>
        ) : null}
      </div>
      {suspending ? (
        <SuspendSheet
          onClose={() => setSuspending(false)}
          onConfirm={(days, reason) => {
            setSuspending(false);
            run({ action: 'suspend', days, ...(reason ? { reason } : {}) });
          }}
        />
      ) : null}
    </article>
  );
}

function SuspendSheet(props: {
  onClose: () => void;
  onConfirm: (days: number | null, reason: string) => void;
}) {
  const [period, setPeriod] = useState<string>('7');
  const [reason, setReason] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onConfirm(period === 'forever' ? null : Number(period), reason.trim());
  };
  return (
    <Sheet title={s.suspendTitle} onClose={props.onClose}>
      <form className={styles.report} onSubmit={submit}>
        <fieldset className={styles.reasons}>
          <legend>{s.suspendPeriod}</legend>
          {['1', '7', '30', 'forever'].map((p) => (
            <label key={p} className={styles.reason}>
              <input
                type="radio"
                name="suspend-period"
                value={p}
                checked={period === p}
                onChange={() => setPeriod(p)}
              />
              <span>{s.periods[p]}</span>
            </label>
          ))}
        </fieldset>
        <TextField
          label={s.reasonLabel}
          value={reason}
          maxLength={500}
          onChange={(e) => setReason(e.target.value)}
        />
        <div className={styles.actions}>
          <Button variant="secondary" onClick={props.onClose}>
            {s.cancel}
          </Button>
          <Button type="submit" variant="danger">
            {s.confirmSuspend}
          </Button>
        </div>
      </form>
    </Sheet>
  );
}

function auditTarget(entry: AuditEntry): string {
  if (
    entry.subject &&
    (entry.action === 'suspend' || entry.action === 'unsuspend' || entry.action === 'grant')
  )
    return `@${entry.subject.username}`;
  if (entry.kind) return `${s.kindObject(entry.kind)} №${entry.target_id}`;
  return entry.target_id ? `№${entry.target_id}` : '';
}

function auditDetails(entry: AuditEntry): string {
  if (entry.action !== 'suspend') return '';
  return ` ${entry.until ? s.auditUntil(entry.until) : s.auditForGood}`;
}

function Audit() {
  const audit = useAudit(true);
  if (audit.isPending) return <p className={styles.muted}>{s.loading}</p>;
  if (audit.isError) return <p className={styles.muted}>{s.loadFailed}</p>;
  if (audit.data.entries.length === 0) return <p className={styles.muted}>{s.emptyAudit}</p>;
  return (
    <ol className={styles.audit} aria-label={s.tabs.audit}>
      {audit.data.entries.map((e) => (
        <li key={e.id} className={styles.auditEntry}>
          <time dateTime={e.created_at} className={styles.muted}>
            {new Date(e.created_at).toLocaleString('ru-RU')}
          </time>
          <p>
            {`${s.auditLine(e.moderator ? `@${e.moderator.username}` : s.unknownModerator, e.action)} ${auditTarget(e)}${auditDetails(e)}`}
          </p>
          {e.reason ? <p className={styles.muted}>{s.auditReason(e.reason)}</p> : null}
        </li>
      ))}
    </ol>
  );
}

function Moderators() {
  const list = useModerators(true);
  const grant = useGrant();
  const end = useEndStream();
  const [username, setUsername] = useState('');
  const [stream, setStream] = useState('');
  const onGrant = (e: FormEvent) => {
    e.preventDefault();
    grant.mutate(username.trim(), {
      onSuccess: (r) => {
        setUsername('');
        showToast(s.granted_(r.user.username));
      },
      onError: (error) => showToast(s.actionFailed(errorMessage(error))),
    });
  };
  const onEnd = (e: FormEvent) => {
    e.preventDefault();
    const id = Number(stream.trim().match(/(\d+)\/?$/)?.[1]);
    if (!Number.isInteger(id) || id <= 0) return;
    end.mutate(id, {
      onSuccess: () => {
        setStream('');
        showToast(s.streamEnded);
      },
      onError: (error) => showToast(s.actionFailed(errorMessage(error))),
    });
  };
  return (
    <div className={styles.tools}>
      <ul className={styles.moderators} aria-label={s.moderatorsList}>
        {list.data?.moderators.map((m) => (
          <li key={m.user.id}>
            <strong>{m.user.name}</strong> @{m.user.username}{' '}
            <span className={styles.muted}>{m.source === 'config' ? s.fromConfig : s.granted}</span>
          </li>
        ))}
      </ul>
      <form className={styles.report} onSubmit={onGrant}>
        <TextField label={s.grantLabel} value={username} onChange={(e) => setUsername(e.target.value)} />
        <Button type="submit" disabled={!username.trim() || grant.isPending}>
          {s.grant}
        </Button>
      </form>
      <form className={styles.report} onSubmit={onEnd}>
        <TextField label={s.endStreamLabel} value={stream} onChange={(e) => setStream(e.target.value)} />
        <Button type="submit" variant="danger" disabled={!stream.trim() || end.isPending}>
          {s.endStream}
        </Button>
      </form>
    </div>
  );
}
