import { Lock } from 'lucide-react';
import { profileStrings } from '../strings.ts';
import styles from './ProfileCard.module.css';

/** In place of a private account's posts, stories and lists for someone who does not follow it. */
export function PrivateAccountNotice() {
  return (
    <section className={styles.privateNotice} aria-labelledby="private-account-title">
      <Lock size={28} aria-hidden="true" />
      <h2 id="private-account-title" className={styles.privateTitle}>
        {profileStrings.privateAccount}
      </h2>
      <p className={styles.privateHint}>{profileStrings.privateAccountHint}</p>
    </section>
  );
}
