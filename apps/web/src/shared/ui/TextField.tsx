import { type InputHTMLAttributes, type TextareaHTMLAttributes, useId } from 'react';
import styles from './TextField.module.css';

interface CommonProps {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
}

type InputProps = CommonProps & InputHTMLAttributes<HTMLInputElement> & { multiline?: false };
type AreaProps = CommonProps & TextareaHTMLAttributes<HTMLTextAreaElement> & { multiline: true };

/** A labelled input whose error text sits under it and is announced through aria-describedby. */
export function TextField(props: InputProps | AreaProps) {
  const generatedId = useId();
  const id = props.id ?? generatedId;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [props.error ? errorId : null, props.hint ? hintId : null].filter(Boolean).join(' ');
  const a11y = {
    id,
    'aria-invalid': props.error ? true : undefined,
    'aria-describedby': describedBy || undefined,
  };

  let control: React.ReactNode;
  if (props.multiline) {
    const { label: _l, error: _e, hint: _h, multiline: _m, className, ...rest } = props;
    control = (
      <textarea {...rest} {...a11y} className={`${styles.control} ${styles.area} ${className ?? ''}`} />
    );
  } else {
    const { label: _l, error: _e, hint: _h, multiline: _m, className, ...rest } = props;
    control = <input {...rest} {...a11y} className={`${styles.control} ${className ?? ''}`} />;
  }

  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {props.label}
      </label>
      {control}
      {props.hint && !props.error ? (
        <p id={hintId} className={styles.hint}>
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p id={errorId} className={styles.error} role="alert">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}
