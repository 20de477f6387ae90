import { ru } from '../../../shared/i18n/ru.ts';
import { Button } from '../../../shared/ui/Button.tsx';
import { useLogoutMutation } from '../../auth/api/auth-queries.ts';
import styles from './Settings.module.css';

export function LogoutSection() {
  const logout = useLogoutMutation();
  return (
    <section className={styles.section} aria-labelledby="settings-account">
      <h2 id="settings-account" className={styles.sectionTitle}>
        {ru.settings.account}
      </h2>
      <p className={styles.muted}>{ru.settings.logoutHint}</p>
      <Button variant="danger" disabled={logout.isPending} onClick={() => logout.mutate()}>
        {logout.isPending ? ru.auth.loggingOut : ru.auth.logout}
      </Button>
    </section>
  );
}
