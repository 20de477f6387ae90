import { type FormEvent, useState } from 'react';
import { Button } from '../../../shared/ui/Button.tsx';
import { TextField } from '../../../shared/ui/TextField.tsx';
import { useLoginMutation } from '../api/auth-queries.ts';
import { useFormErrors } from '../hooks/use-form-errors.ts';
import { collectErrors, required } from '../lib/validation.ts';
import { authStrings } from '../strings.ts';
import styles from './AuthLayout.module.css';

const FIELDS = ['username', 'password'] as const;

export function LoginForm() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const errors = useFormErrors(FIELDS);
  const [solving, setSolving] = useState(false);
  const login = useLoginMutation(setSolving);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const clientErrors = collectErrors({ username: required(username.trim()), password: required(password) });
    errors.reset(clientErrors);
    if (Object.keys(clientErrors).length > 0) return;
    login.mutate({ username: username.trim(), password }, { onError: errors.showServerError });
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label={authStrings.loginTitle}>
      <TextField
        label={authStrings.username}
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        value={username}
        error={errors.fieldErrors.username}
        onChange={(e) => {
          setUsername(e.target.value);
          errors.clearField('username');
        }}
      />
      <TextField
        label={authStrings.password}
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        error={errors.fieldErrors.password}
        onChange={(e) => {
          setPassword(e.target.value);
          errors.clearField('password');
        }}
      />
      {solving ? (
        <p className={styles.footer} role="status">
          {authStrings.checkingDevice}
        </p>
      ) : null}
      {errors.formError ? (
        <p className={styles.formError} role="alert">
          {errors.formError}
        </p>
      ) : null}
      <Button type="submit" block disabled={login.isPending}>
        {login.isPending ? authStrings.submitting : authStrings.submitLogin}
      </Button>
    </form>
  );
}
