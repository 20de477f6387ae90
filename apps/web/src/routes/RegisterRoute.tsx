import { Link } from 'react-router';
import { AuthLayout } from '../features/auth/components/AuthLayout.tsx';
import { RegisterForm } from '../features/auth/components/RegisterForm.tsx';
import { ru } from '../shared/i18n/ru.ts';

export default function RegisterRoute() {
  return (
    <AuthLayout
      title={ru.auth.registerTitle}
      footer={
        <>
          {ru.auth.haveAccount} <Link to="/login">{ru.auth.toLogin}</Link>
        </>
      }
    >
      <RegisterForm />
    </AuthLayout>
  );
}
