import { Link } from 'react-router';
import { AuthLayout } from '../features/auth/components/AuthLayout.tsx';
import { LoginForm } from '../features/auth/components/LoginForm.tsx';
import { ru } from '../shared/i18n/ru.ts';

export default function LoginRoute() {
  return (
    <AuthLayout
      title={ru.auth.loginTitle}
      footer={
        <>
          {ru.auth.noAccount} <Link to="/register">{ru.auth.toRegister}</Link>
        </>
      }
    >
      <LoginForm />
    </AuthLayout>
  );
}
