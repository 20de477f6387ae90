import { errorMessage } from '../../../shared/api/client.ts';
import { Button } from '../../../shared/ui/Button.tsx';
import { useBlocked, useSetBlock } from '../api/settings-queries.ts';
import { settingsStrings } from '../strings.ts';
import styles from './Settings.module.css';

/** Block or unblock a user (a profile, a chat's menu); the list in settings → privacy follows. */
export function BlockButton({ username, className }: { username: string; className?: string }) {
  const blocked = useBlocked();
  const setBlock = useSetBlock();
  const isBlocked = (blocked.data ?? []).some((u) => u.username.toLowerCase() === username.toLowerCase());
  return (
    <>
      <Button
        variant="secondary"
        className={className}
        aria-pressed={isBlocked}
        disabled={!blocked.data || setBlock.isPending}
        onClick={() => setBlock.mutate({ username, block: !isBlocked })}
      >
        {isBlocked ? settingsStrings.privacy.unblock : settingsStrings.privacy.block}
      </Button>
      {setBlock.error ? (
        <p className={styles.error} role="alert">
          {errorMessage(setBlock.error)}
        </p>
      ) : null}
    </>
  );
}
