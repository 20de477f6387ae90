import { useDeferredValue } from 'react';
import { useParams } from 'react-router';
import { usePageShown } from '../app/boot/frame-overlay.ts';
import { useCurrentUser } from '../features/auth/auth-store.ts';
import { useProfileQuery } from '../features/profile/api/profile-queries.ts';
import { profileSeed } from '../features/profile/api/profile-seed.ts';
import { PrivateAccountNotice } from '../features/profile/components/PrivateAccountNotice.tsx';
import { ProfileCard, ProfileSeedHeader } from '../features/profile/components/ProfileCard.tsx';
import { ProfilePosts } from '../features/profile/components/ProfilePosts.tsx';
import { profileStrings } from '../features/profile/strings.ts';
import { isApiError } from '../shared/api/client.ts';
import { ru } from '../shared/i18n/ru.ts';
import { Button } from '../shared/ui/Button.tsx';
import styles from '../shared/ui/Page.module.css';
import { PageHeader } from '../shared/ui/PageHeader.tsx';
import { Spinner } from '../shared/ui/Spinner.tsx';

export default function ProfileRoute() {
  usePageShown();
  const { username = '' } = useParams();
  const me = useCurrentUser();
  const profile = useProfileQuery(username);
  // The card and the grid render from a deferred copy: an interruptible background render in short slices
  // instead of one long task when the profile arrives (TBT).
  const data = useDeferredValue(profile.data);

  let body: React.ReactNode;
  if (data) {
    body = (
      <>
        <ProfileCard profile={data} isOwn={me?.id === data.id} />
        {data.can_see_content || me?.id === data.id ? (
          <ProfilePosts key={data.id} username={data.username} />
        ) : (
          <PrivateAccountNotice />
        )}
      </>
    );
  } else if (profile.isError && !profile.data) {
    const notFound = isApiError(profile.error) && profile.error.status === 404;
    body = (
      <div className={styles.centered} role="alert">
        <h1>{notFound ? profileStrings.notFound : profileStrings.loadFailed}</h1>
        {notFound ? null : (
          <Button variant="secondary" onClick={() => profile.refetch()}>
            {profileStrings.retry}
          </Button>
        )}
      </div>
    );
  } else if (profileSeed(username)) {
    // The header at once from what the app already knows; counts, bio and the grid follow.
    const seed = profileSeed(username)!;
    body = (
      <>
        <ProfileSeedHeader seed={seed} />
        <div className={styles.centered} role="status" aria-label={ru.app.loading}>
          <Spinner />
        </div>
      </>
    );
  } else {
    body = (
      <div className={styles.centered} role="status" aria-label={ru.app.loading}>
        <Spinner />
      </div>
    );
  }

  return (
    <div className={styles.page}>
      <PageHeader />
      <main className={styles.body}>{body}</main>
    </div>
  );
}
