import { passwordShapeProblem, passwordStrength } from '@kadr/contract/browser';
import { authStrings } from '../strings.ts';
import styles from './PasswordStrength.module.css';

const LEVELS = { weak: 1, fair: 2, strong: 3 } as const;

/**
 * How guessable the password being typed looks: a three-step bar and a text read out as it changes. A
 * rule the server would refuse it for (the username inside, one repeated character) is said at once.
 */
export function PasswordStrength(props: {
  password: string;
  username: string;
  /** The field shows an error already: the bar stays, the text would repeat it. */
  quiet?: boolean;
}) {
  if (props.password === '') return null;
  const username = props.username.trim() || null;
  const strength = passwordStrength(props.password, username);
  const problem = passwordShapeProblem(props.password, username);
  const filled = LEVELS[strength];
  return (
    <div className={styles.strength} data-strength={strength}>
      <div className={styles.bar} aria-hidden="true">
        {[1, 2, 3].map((step) => (
          <span key={step} className={step <= filled ? styles.on : styles.off} />
        ))}
      </div>
      {props.quiet ? null : (
        <p className={styles.text} role="status" aria-live="polite">
          {problem ?? authStrings.strength[strength]}
        </p>
      )}
    </div>
  );
}
