import { useCurrentUser } from '../features/auth/auth-store.ts';
import { AvatarUpload } from '../features/settings/components/AvatarUpload.tsx';
import { LogoutSection } from '../features/settings/components/LogoutSection.tsx';
import { ProfileForm } from '../features/settings/components/ProfileForm.tsx';
import { ru } from '../shared/i18n/ru.ts';
import styles from '../shared/ui/Page.module.css';
import { PageHeader } from '../shared/ui/PageHeader.tsx';

export default function ProfileSettingsRoute() {
  const user = useCurrentUser();
  if (!user) return null;
  return (
    <div className={styles.page}>
      <PageHeader title={ru.settings.title} />
      <main className={styles.body}>
        <AvatarUpload user={user} />
        <ProfileForm user={user} />
        <LogoutSection />
      </main>
    </div>
  );
}
