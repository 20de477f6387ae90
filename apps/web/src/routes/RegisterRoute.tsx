import { Link } from 'react-router';
import { AuthLayout } from '../features/auth/components/AuthLayout.tsx';
import { RegisterForm } from '../features/auth/components/RegisterForm.tsx';
import { authStrings } from '../features/auth/strings.ts';

export default function RegisterRoute() {
  return (
    <AuthLayout
      title={authStrings.registerTitle}
      footer={
        <>
          {authStrings.haveAccount} <Link to="/login">{authStrings.toLogin}</Link>
        </>
      }
    >
      <RegisterForm />
    </AuthLayout>
  );
}
