import type { Me } from '@kadr/contract';
import { Limits } from '@kadr/contract/browser';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../shared/ui/Button.tsx';
import { TextField } from '../../../shared/ui/TextField.tsx';
import { useFormErrors } from '../../auth/hooks/use-form-errors.ts';
import { collectErrors, validateBio, validateName } from '../../auth/lib/validation.ts';
import { useUpdateProfileMutation } from '../api/profile-settings-queries.ts';
import { settingsStrings } from '../strings.ts';
import styles from './Settings.module.css';

const FIELDS = ['name', 'bio'] as const;

export function ProfileForm({ user }: { user: Me }) {
  const [name, setName] = useState(user.name);
  const [bio, setBio] = useState(user.bio);
  const errors = useFormErrors(FIELDS);
  const update = useUpdateProfileMutation();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = { name: name.trim(), bio: bio.trim() };
    const clientErrors = collectErrors({ name: validateName(body.name), bio: validateBio(body.bio) });
    errors.reset(clientErrors);
    if (Object.keys(clientErrors).length > 0) return;
    update.mutate(body, { onError: errors.showServerError });
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label={settingsStrings.title}>
      <TextField
        label={settingsStrings.name}
        name="name"
        autoComplete="name"
        value={name}
        error={errors.fieldErrors.name}
        onChange={(e) => {
          setName(e.target.value);
          errors.clearField('name');
          update.reset();
        }}
      />
      <TextField
        multiline
        label={settingsStrings.bio}
        name="bio"
        rows={4}
        value={bio}
        hint={settingsStrings.bioCounter(bio.length, Limits.bio.max)}
        error={errors.fieldErrors.bio}
        onChange={(e) => {
          setBio(e.target.value);
          errors.clearField('bio');
          update.reset();
        }}
      />
      {errors.formError ? (
        <p className={styles.error} role="alert">
          {errors.formError}
        </p>
      ) : null}
      {update.isSuccess ? (
        <p className={styles.success} role="status">
          {settingsStrings.saved}
        </p>
      ) : null}
      <Button type="submit" disabled={update.isPending}>
        {update.isPending ? settingsStrings.saving : settingsStrings.save}
      </Button>
    </form>
  );
}
