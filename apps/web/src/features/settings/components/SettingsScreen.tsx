import { errorMessage } from '../../../shared/api/client.ts';
import { ru } from '../../../shared/i18n/ru.ts';
import pageStyles from '../../../shared/ui/Page.module.css';
import { PageHeader } from '../../../shared/ui/PageHeader.tsx';
import { Spinner } from '../../../shared/ui/Spinner.tsx';
import { useCurrentUser } from '../../auth/auth-store.ts';
import { useSettings } from '../api/settings-queries.ts';
import { settingsStrings } from '../strings.ts';
import { AvatarUpload } from './AvatarUpload.tsx';
import { LogoutSection } from './LogoutSection.tsx';
import { ProfileForm } from './ProfileForm.tsx';
import styles from './Settings.module.css';
import { AccountExtras, ChatSection, NotificationsSection, PrivacySection } from './SettingsSections.tsx';

const S = settingsStrings;

/** Settings (spec §2.3): account, notifications and sounds, privacy, chat settings, logout. */
export function SettingsScreen() {
  const user = useCurrentUser();
  const settings = useSettings();
  if (!user) return null;
  return (
    <div className={pageStyles.page}>
      <PageHeader title={S.screenTitle} />
      <main className={pageStyles.body}>
        <nav aria-label={S.screenTitle}>
          <ul className={styles.toc}>
            <li>
              <a href="#account">{S.sections.account}</a>
            </li>
            <li>
              <a href="#notifications">{S.sections.notifications}</a>
            </li>
            <li>
              <a href="#privacy">{S.sections.privacy}</a>
            </li>
            <li>
              <a href="#chat">{S.sections.chat}</a>
            </li>
            <li>
              <a href="#logout">{S.sections.logout}</a>
            </li>
          </ul>
        </nav>
        <div className={styles.screen} id="account">
          <AvatarUpload user={user} />
          <ProfileForm user={user} />
          <AccountExtras />
        </div>
        {settings.data ? (
          <>
            <NotificationsSection settings={settings.data} />
            <PrivacySection settings={settings.data} />
            <ChatSection settings={settings.data} />
          </>
        ) : settings.error ? (
          <p className={styles.error} role="alert">
            {S.loadFailed}: {errorMessage(settings.error)}
          </p>
        ) : (
          <Spinner />
        )}
        <div id="logout">
          <LogoutSection />
        </div>
        {/* The credit the licences of what ships inside the app ask for (Twemoji: CC-BY 4.0). */}
        <section className={styles.licences} aria-labelledby="licences-title" id="licences">
          <h2 id="licences-title">{ru.licences.title}</h2>
          <p>{ru.licences.twemoji}</p>
        </section>
      </main>
    </div>
  );
}
