import { Link } from 'react-router';
import { AuthLayout } from '../features/auth/components/AuthLayout.tsx';
import { LoginForm } from '../features/auth/components/LoginForm.tsx';
import { authStrings } from '../features/auth/strings.ts';

export default function LoginRoute() {
  return (
    <AuthLayout
      title={authStrings.loginTitle}
      footer={
        <>
          {authStrings.noAccount} <Link to="/register">{authStrings.toRegister}</Link>
        </>
      }
    >
      <LoginForm />
    </AuthLayout>
  );
}
