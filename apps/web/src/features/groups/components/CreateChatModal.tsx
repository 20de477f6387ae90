import { channelsEndpoints } from '@kadr/contract/channels/endpoints';
import { groupsEndpoints } from '@kadr/contract/groups/endpoints';
import { useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, isApiError } from '../../../shared/api/client.ts';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { refetchChatsAfterWrite } from '../../messenger/api/cache-writes.ts';
import { groupsStrings as S } from '../strings.ts';
import { ChatNameFields } from './ChatNameFields.tsx';
import g from './groups.module.css';
import { type PickableUser, UserPicker } from './UserPicker.tsx';

const SLUG = /^[A-Za-z0-9_-]{5,32}$/;

/** Create a group (name, description, members picked by search, public with an address) or a channel. */
export function CreateChatModal({ kind, onClose }: { kind: 'group' | 'channel'; onClose: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [slug, setSlug] = useState('');
  const [isPublic, setPublic] = useState(kind === 'channel');
  const [picked, setPicked] = useState<PickableUser[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const toggle = (user: PickableUser) =>
    setPicked((held) =>
      held.some((p) => p.id === user.id) ? held.filter((p) => p.id !== user.id) : [...held, user],
    );

  const needsSlug = kind === 'channel' || isPublic;
  const valid = name.trim() !== '' && (!needsSlug || SLUG.test(slug));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!valid || busy) return;
    setBusy(true);
    setError(null);
    try {
      const created =
        kind === 'group'
          ? await api.call(groupsEndpoints.create, {
              body: {
                name: name.trim(),
                description: description.trim(),
                is_public: isPublic,
                ...(isPublic ? { slug } : {}),
                member_ids: picked.map((u) => u.id),
              },
            })
          : await api.call(channelsEndpoints.create, {
              body: { name: name.trim(), slug, description: description.trim(), is_public: isPublic },
            });
      await refetchChatsAfterWrite(queryClient);
      onClose();
      navigate('/messenger', { state: { openChatKey: `${kind}:${created.id}` } });
    } catch (err) {
      // Spec §8: the failure goes back to the caller — shown here, the form stays.
      setError(isApiError(err) ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Sheet title={kind === 'group' ? S.createGroup : S.createChannel} onClose={onClose} centered>
      <form className={g.form} onSubmit={(e) => void submit(e)}>
        <ChatNameFields
          name={name}
          onName={setName}
          description={description}
          onDescription={setDescription}
        />
        <label className={g.check}>
          <input type="checkbox" checked={isPublic} onChange={(e) => setPublic(e.currentTarget.checked)} />
          {S.publicChat}
        </label>
        {needsSlug ? (
          <label>
            {S.slug}
            <input
              type="text"
              value={slug}
              maxLength={32}
              pattern="[A-Za-z0-9_\-]{5,32}"
              onChange={(e) => setSlug(e.currentTarget.value)}
            />
          </label>
        ) : null}
        {kind === 'group' ? (
          <>
            {picked.length > 0 ? (
              <fieldset className={g.chips} aria-label={S.members}>
                {picked.map((u) => (
                  <span key={u.id} className={g.chip}>
                    {u.name}
                    <button
                      type="button"
                      className={g.link2}
                      aria-label={`${S.cancel}: ${u.name}`}
                      onClick={() => toggle(u)}
                    >
                      <X size={12} aria-hidden />
                    </button>
                  </span>
                ))}
              </fieldset>
            ) : null}
            <UserPicker picked={picked} onToggle={toggle} />
          </>
        ) : null}
        {error ? (
          <p className={g.error} role="alert">
            {error}
          </p>
        ) : null}
        <div className={g.row}>
          <button type="submit" className={g.primary} disabled={!valid || busy}>
            {S.create}
          </button>
          <button type="button" className={g.secondary} onClick={onClose}>
            {S.cancel}
          </button>
        </div>
      </form>
    </Sheet>
  );
}
