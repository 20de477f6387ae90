import type { Me } from '@kadr/contract';
import { type ChangeEvent, useId, useState } from 'react';
import { errorMessage } from '../../../shared/api/client.ts';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { useAvatarUploadMutation } from '../api/profile-settings-queries.ts';
import { settingsStrings } from '../strings.ts';
import styles from './Settings.module.css';

export function AvatarUpload({ user }: { user: Me }) {
  const inputId = useId();
  const upload = useAvatarUploadMutation();
  const [clientError, setClientError] = useState<string | null>(null);

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      setClientError(settingsStrings.notImage);
      return;
    }
    setClientError(null);
    upload.mutate(file);
  };

  const error = clientError ?? (upload.isError ? errorMessage(upload.error) : null);
  return (
    <section className={styles.avatarRow} aria-labelledby={`${inputId}-title`}>
      <Avatar name={user.name} url={user.avatar_thumbnail_url ?? user.avatar_url} size={72} />
      <div className={styles.avatarControls}>
        <h2 id={`${inputId}-title`} className={styles.sectionTitle}>
          {settingsStrings.avatar}
        </h2>
        <input
          id={inputId}
          className="visually-hidden"
          type="file"
          name="file"
          accept="image/*"
          disabled={upload.isPending}
          onChange={onChange}
        />
        <label className={styles.fileButton} htmlFor={inputId} aria-disabled={upload.isPending}>
          {upload.isPending ? settingsStrings.uploadingAvatar : settingsStrings.changeAvatar}
        </label>
        {error ? (
          <p className={styles.error} role="alert">
            {error}
          </p>
        ) : null}
        {upload.isSuccess ? (
          <p className={styles.success} role="status">
            {settingsStrings.avatarUpdated}
          </p>
        ) : null}
      </div>
    </section>
  );
}
