import type { Group } from '@kadr/contract';
import { Camera } from 'lucide-react';
import { type ChangeEvent, lazy, Suspense, useId, useState } from 'react';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { groupsStrings as S } from '../strings.ts';
import g from './groups.module.css';

const AvatarCropSheet = lazy(() =>
  import('./AvatarCropSheet.tsx').then((m) => ({ default: m.AvatarCropSheet })),
);

/**
 * The group's photo in chat info; admins pick a file, choose the square in the crop sheet and save it.
 * Members see the new photo through `group-updated` (the chat list and the group reload).
 */
export function GroupAvatarSection({ group, admin }: { group: Group; admin: boolean }) {
  const inputId = useId();
  const [picked, setPicked] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      setError(S.photoUnreadable);
      return;
    }
    setError(null);
    setPicked(file);
  };
  return (
    <section className={g.avatarBlock} aria-label={S.groupPhoto}>
      <Avatar name={group.name} url={group.avatar_url} size={72} alt={S.groupPhoto} />
      {admin ? (
        <div className={g.avatarControls}>
          <input
            id={inputId}
            className="visually-hidden"
            type="file"
            accept="image/*"
            onChange={onChange}
            data-testid="group-avatar-input"
          />
          <label className={g.secondary} htmlFor={inputId}>
            <Camera size={16} aria-hidden /> {group.avatar_url ? S.changePhoto : S.choosePhoto}
          </label>
          {error ? (
            <p className={g.error} role="alert">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
      {picked ? (
        <Suspense fallback={null}>
          <AvatarCropSheet groupId={group.id} file={picked} onClose={() => setPicked(null)} />
        </Suspense>
      ) : null}
    </section>
  );
}
