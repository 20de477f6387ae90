import type { NotificationKind, Settings, SettingsPatch } from '@kadr/contract';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { errorMessage } from '../../../shared/api/client.ts';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { Button } from '../../../shared/ui/Button.tsx';
import { ConfirmSheet } from '../../../shared/ui/ConfirmSheet.tsx';
import { TextField } from '../../../shared/ui/TextField.tsx';
import { useAuthStore } from '../../auth/auth-store.ts';
import { disablePush, enablePush, type PushState, pushState } from '../api/push-subscription.ts';
import {
  useBlocked,
  useChangePassword,
  useDeleteAccount,
  useEndSession,
  useSessions,
  useSetBlock,
  useUpdateSettings,
} from '../api/settings-queries.ts';
import { settingsStrings } from '../strings.ts';
import styles from './Settings.module.css';

const S = settingsStrings;

/**
 * What a control shows: the person's pick at once, then whatever the settings say once they change. A
 * controlled input otherwise snaps back until the optimistic write re-renders it (a tick later, after the
 * settings query is cancelled), and a test or a quick second tap reads the old state in between.
 */
export function usePicked<T>(value: T): [T, (next: T) => void] {
  const [state, setState] = useState<{ value: T; picked: { to: T } | null }>({ value, picked: null });
  if (!Object.is(state.value, value)) setState({ value, picked: null });
  const shown = Object.is(state.value, value) && state.picked ? state.picked.to : value;
  return [shown, (to) => setState({ value, picked: { to } })];
}

/** A labelled group of radio buttons (one choice). */
export function Choice<T extends string>(props: {
  legend: string;
  name: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
}) {
  const [shown, pick] = usePicked(props.value);
  return (
    <fieldset className={styles.choice}>
      <legend className={styles.legend}>{props.legend}</legend>
      <div className={styles.options}>
        {props.options.map((o) => (
          <label key={o.value} className={styles.option}>
            <input
              type="radio"
              name={props.name}
              value={o.value}
              checked={shown === o.value}
              onChange={() => {
                pick(o.value);
                props.onChange(o.value);
              }}
            />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function Toggle(props: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  const [shown, pick] = usePicked(props.checked);
  return (
    <label className={styles.toggle}>
      <span>{props.label}</span>
      <input
        type="checkbox"
        role="switch"
        aria-checked={shown}
        checked={shown}
        onChange={(e) => {
          pick(e.target.checked);
          props.onChange(e.target.checked);
        }}
      />
    </label>
  );
}

function SectionError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className={styles.error} role="alert">
      {errorMessage(error)}
    </p>
  );
}

// ── Account ──

function PasswordForm() {
  const change = useChangePassword();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    change.mutate(
      { current_password: current, new_password: next },
      {
        onSuccess: () => {
          setCurrent('');
          setNext('');
        },
      },
    );
  };
  return (
    <form className={styles.subform} onSubmit={submit} aria-label={S.password.title}>
      <h3 className={styles.subTitle}>{S.password.title}</h3>
      <TextField
        label={S.password.current}
        type="password"
        autoComplete="current-password"
        value={current}
        onChange={(e) => setCurrent(e.target.value)}
        required
      />
      <TextField
        label={S.password.next}
        type="password"
        autoComplete="new-password"
        value={next}
        onChange={(e) => setNext(e.target.value)}
        required
      />
      <SectionError error={change.error} />
      {change.data ? (
        <p className={styles.success} role="status">
          {S.password.done(change.data.ended_sessions)}
        </p>
      ) : null}
      <Button type="submit" variant="secondary" disabled={change.isPending || !current || !next}>
        {change.isPending ? S.password.saving : S.password.submit}
      </Button>
    </form>
  );
}

function deviceName(userAgent: string | null): string {
  if (!userAgent) return S.sessions.unknownDevice;
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : null;
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  return [browser, system].filter(Boolean).join(', ') || S.sessions.unknownDevice;
}

function SessionsList() {
  const sessions = useSessions();
  const end = useEndSession();
  const when = (iso: string) =>
    new Date(iso).toLocaleString('ru-RU', {
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
    });
  return (
    <div className={styles.subform}>
      <h3 className={styles.subTitle}>{S.sessions.title}</h3>
      <SectionError error={sessions.error ?? end.error} />
      <ul className={styles.list} aria-label={S.sessions.title}>
        {(sessions.data ?? []).map((s) => (
          <li key={s.id} className={styles.row}>
            <div className={styles.rowText}>
              <span>{deviceName(s.user_agent)}</span>
              <span className={styles.muted}>
                {s.is_current ? S.sessions.current : S.sessions.lastUsed(when(s.last_used_at))}
              </span>
              {s.push ? <span className={styles.muted}>{S.sessions.pushOn}</span> : null}
            </div>
            {s.is_current ? null : (
              <Button
                variant="secondary"
                aria-label={S.sessions.endLabel(deviceName(s.user_agent))}
                disabled={end.isPending}
                onClick={() => end.mutate(s.id)}
              >
                {S.sessions.end}
              </Button>
            )}
          </li>
        ))}
      </ul>
      {sessions.data && sessions.data.length <= 1 ? <p className={styles.muted}>{S.sessions.none}</p> : null}
    </div>
  );
}

function DeleteAccount() {
  const remove = useDeleteAccount();
  const signOut = useAuthStore((s) => s.clear);
  const [password, setPassword] = useState('');
  const [asking, setAsking] = useState(false);
  // The password proves who asks; the question makes sure they mean it (nothing can be restored).
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setAsking(true);
  };
  return (
    <>
      <form className={styles.subform} onSubmit={submit} aria-label={S.deleteAccount.title}>
        <h3 className={styles.subTitle}>{S.deleteAccount.title}</h3>
        <p className={styles.muted}>{S.deleteAccount.hint}</p>
        <TextField
          label={S.deleteAccount.password}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
        />
        <SectionError error={remove.error} />
        <Button type="submit" variant="danger" disabled={remove.isPending || !password}>
          {S.deleteAccount.submit}
        </Button>
      </form>
      {asking ? (
        <ConfirmSheet
          title={S.deleteAccount.confirmTitle}
          text={S.deleteAccount.hint}
          confirmLabel={S.deleteAccount.submit}
          onConfirm={() => remove.mutate(password, { onSuccess: () => signOut() })}
          onClose={() => setAsking(false)}
        />
      ) : null}
    </>
  );
}

export function AccountExtras() {
  return (
    <section className={styles.section} aria-labelledby="settings-security">
      <h2 id="settings-security" className={styles.sectionTitle}>
        {S.sections.account}
      </h2>
      <PasswordForm />
      <SessionsList />
      <DeleteAccount />
    </section>
  );
}

// ── Notifications and sounds ──

const KINDS: readonly NotificationKind[] = [
  'message',
  'call',
  'like',
  'comment',
  'follow',
  'repost',
  'mention',
  'reply',
];

function PushDevice() {
  const [state, setState] = useState<PushState | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    void pushState().then(setState);
  }, []);
  const run = (action: () => Promise<PushState>) => {
    setError(null);
    action().then(setState, setError);
  };
  if (state === null) return null;
  return (
    <div className={styles.subform}>
      {state === 'unsupported' ? <p className={styles.muted}>{S.notifications.pushUnsupported}</p> : null}
      {state === 'install' ? <p className={styles.muted}>{S.notifications.pushInstall}</p> : null}
      {state === 'denied' ? <p className={styles.muted}>{S.notifications.pushDenied}</p> : null}
      {state === 'off' ? (
        <Button variant="secondary" onClick={() => run(enablePush)}>
          {S.notifications.pushEnable}
        </Button>
      ) : null}
      {state === 'on' ? (
        <>
          <p className={styles.success}>{S.notifications.pushEnabled}</p>
          <Button variant="secondary" onClick={() => run(disablePush)}>
            {S.notifications.pushDisable}
          </Button>
        </>
      ) : null}
      <SectionError error={error} />
    </div>
  );
}

export function NotificationsSection({ settings }: { settings: Settings }) {
  const update = useUpdateSettings();
  const set = (patch: SettingsPatch) => update.mutate(patch);
  const types = settings.notifications.types;
  return (
    <section className={styles.section} aria-labelledby="settings-notifications" id="notifications">
      <h2 id="settings-notifications" className={styles.sectionTitle}>
        {S.sections.notifications}
      </h2>
      <table className={styles.matrix}>
        <thead>
          <tr>
            <th scope="col">
              <span className={styles.visuallyHidden}>{S.sections.notifications}</span>
            </th>
            <th scope="col">{S.notifications.inApp}</th>
            <th scope="col">{S.notifications.push}</th>
          </tr>
        </thead>
        <tbody>
          {KINDS.map((kind) => (
            <tr key={kind}>
              <th scope="row">{S.notifications.types[kind]}</th>
              {(['in_app', 'push'] as const).map((channel) => (
                <td key={channel}>
                  <input
                    type="checkbox"
                    aria-label={`${S.notifications.types[kind]}: ${channel === 'push' ? S.notifications.push : S.notifications.inApp}`}
                    checked={types[kind][channel]}
                    onChange={(e) =>
                      set({ notifications: { types: { [kind]: { [channel]: e.target.checked } } } })
                    }
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <Toggle
        label={S.notifications.messageSounds}
        checked={settings.notifications.message_sounds}
        onChange={(v) => set({ notifications: { message_sounds: v } })}
      />
      <PushDevice />
      <SectionError error={update.error} />
    </section>
  );
}

// ── Privacy ──

function BlockedList() {
  const blocked = useBlocked();
  const setBlock = useSetBlock();
  return (
    <div className={styles.subform}>
      <h3 className={styles.subTitle}>{S.privacy.blocked}</h3>
      <SectionError error={blocked.error ?? setBlock.error} />
      {blocked.data && blocked.data.length === 0 ? (
        <p className={styles.muted}>{S.privacy.noBlocked}</p>
      ) : null}
      <ul className={styles.list} aria-label={S.privacy.blocked}>
        {(blocked.data ?? []).map((u) => (
          <li key={u.id} className={styles.row}>
            <Avatar name={u.name} url={u.avatar_thumbnail_url ?? u.avatar_url} size={36} />
            <div className={styles.rowText}>
              <span>{u.name}</span>
              <span className={styles.muted}>@{u.username}</span>
            </div>
            <Button
              variant="secondary"
              aria-label={`${S.privacy.unblock} @${u.username}`}
              disabled={setBlock.isPending}
              onClick={() => setBlock.mutate({ username: u.username, block: false })}
            >
              {S.privacy.unblock}
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function PrivacySection({ settings }: { settings: Settings }) {
  const update = useUpdateSettings();
  const id = useId();
  const p = settings.privacy;
  const contact = [
    { value: 'everyone' as const, label: S.privacy.everyone },
    { value: 'following' as const, label: S.privacy.following },
  ];
  return (
    <section className={styles.section} aria-labelledby="settings-privacy" id="privacy">
      <h2 id="settings-privacy" className={styles.sectionTitle}>
        {S.sections.privacy}
      </h2>
      <Choice
        legend={S.privacy.messages}
        name={`${id}-messages`}
        value={p.messages}
        options={[...contact, { value: 'nobody' as const, label: S.privacy.nobody }]}
        onChange={(v) => update.mutate({ privacy: { messages: v } })}
      />
      <Choice
        legend={S.privacy.lastSeen}
        name={`${id}-last-seen`}
        value={p.last_seen}
        options={[...contact, { value: 'nobody' as const, label: S.privacy.nobody }]}
        onChange={(v) => update.mutate({ privacy: { last_seen: v } })}
      />
      <Choice
        legend={S.privacy.calls}
        name={`${id}-calls`}
        value={p.calls}
        options={contact}
        onChange={(v) => update.mutate({ privacy: { calls: v } })}
      />
      <Choice
        legend={S.privacy.groupAdd}
        name={`${id}-group-add`}
        value={p.group_add}
        options={[...contact, { value: 'nobody' as const, label: S.privacy.nobody }]}
        onChange={(v) => update.mutate({ privacy: { group_add: v } })}
      />
      <p className={styles.muted}>{S.privacy.groupAddHint}</p>
      <Toggle
        label={S.privacy.privateAccount}
        checked={p.private_account}
        onChange={(v) => update.mutate({ privacy: { private_account: v } })}
      />
      <p className={styles.muted}>{S.privacy.privateAccountHint}</p>
      <SectionError error={update.error} />
      <BlockedList />
    </section>
  );
}

// ── Chat settings ──

export function ChatSection({ settings }: { settings: Settings }) {
  const update = useUpdateSettings();
  const id = useId();
  const c = settings.chat;
  return (
    <section className={styles.section} aria-labelledby="settings-chat" id="chat">
      <h2 id="settings-chat" className={styles.sectionTitle}>
        {S.sections.chat}
      </h2>
      <Toggle
        label={S.chat.enterSends}
        checked={c.enter_sends}
        onChange={(v) => update.mutate({ chat: { enter_sends: v } })}
      />
      <Toggle
        label={S.chat.reducedBadges}
        checked={c.reduced_badges}
        onChange={(v) => update.mutate({ chat: { reduced_badges: v } })}
      />
      <Choice
        legend={S.chat.textSize}
        name={`${id}-size`}
        value={c.text_size}
        options={(['small', 'medium', 'large'] as const).map((v) => ({ value: v, label: S.chat.sizes[v] }))}
        onChange={(v) => update.mutate({ chat: { text_size: v } })}
      />
      <Choice
        legend={S.chat.theme}
        name={`${id}-theme`}
        value={c.theme}
        options={(['light', 'dark', 'system'] as const).map((v) => ({ value: v, label: S.chat.themes[v] }))}
        onChange={(v) => update.mutate({ chat: { theme: v } })}
      />
      <SectionError error={update.error} />
    </section>
  );
}
