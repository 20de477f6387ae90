import { Button } from '../../../shared/ui/Button.tsx';
import { useLogoutMutation } from '../../auth/api/auth-queries.ts';
import { authStrings } from '../../auth/strings.ts';
import { settingsStrings } from '../strings.ts';
import styles from './Settings.module.css';

export function LogoutSection() {
  const logout = useLogoutMutation();
  return (
    <section className={styles.section} aria-labelledby="settings-account">
      <h2 id="settings-account" className={styles.sectionTitle}>
        {settingsStrings.account}
      </h2>
      <p className={styles.muted}>{settingsStrings.logoutHint}</p>
      <Button variant="danger" disabled={logout.isPending} onClick={() => logout.mutate()}>
        {logout.isPending ? authStrings.loggingOut : authStrings.logout}
      </Button>
    </section>
  );
}
