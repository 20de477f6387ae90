import { type FormEvent, useState } from 'react';
import { Button } from '../../../shared/ui/Button.tsx';
import { TextField } from '../../../shared/ui/TextField.tsx';
import { useRegisterMutation } from '../api/auth-queries.ts';
import { useFormErrors } from '../hooks/use-form-errors.ts';
import { collectErrors, validateName, validatePassword, validateUsername } from '../lib/validation.ts';
import { authStrings } from '../strings.ts';
import styles from './AuthLayout.module.css';
import { PasswordStrength } from './PasswordStrength.tsx';

const FIELDS = ['username', 'name', 'password'] as const;
type Field = (typeof FIELDS)[number];

export function RegisterForm() {
  const [values, setValues] = useState<Record<Field, string>>({ username: '', name: '', password: '' });
  const errors = useFormErrors(FIELDS);
  const register = useRegisterMutation();

  const change = (field: Field) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    errors.clearField(field);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = { username: values.username.trim(), name: values.name.trim(), password: values.password };
    const clientErrors = collectErrors({
      username: validateUsername(body.username),
      name: validateName(body.name),
      password: validatePassword(body.password, body.username),
    });
    errors.reset(clientErrors);
    if (Object.keys(clientErrors).length > 0) return;
    register.mutate(body, { onError: errors.showServerError });
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label={authStrings.registerTitle}>
      <TextField
        label={authStrings.username}
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        hint={authStrings.usernameHint}
        value={values.username}
        error={errors.fieldErrors.username}
        onChange={change('username')}
      />
      <TextField
        label={authStrings.name}
        name="name"
        autoComplete="name"
        value={values.name}
        error={errors.fieldErrors.name}
        onChange={change('name')}
      />
      <TextField
        label={authStrings.password}
        name="password"
        type="password"
        autoComplete="new-password"
        hint={authStrings.passwordHint}
        value={values.password}
        error={errors.fieldErrors.password}
        onChange={change('password')}
      />
      <PasswordStrength
        password={values.password}
        username={values.username}
        quiet={Boolean(errors.fieldErrors.password)}
      />
      {errors.formError ? (
        <p className={styles.formError} role="alert">
          {errors.formError}
        </p>
      ) : null}
      <Button type="submit" block disabled={register.isPending}>
        {register.isPending ? authStrings.submitting : authStrings.submitRegister}
      </Button>
    </form>
  );
}
