import styles from './Avatar.module.css';

interface Props {
  name: string;
  url: string | null;
  size?: number;
  alt?: string;
}

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters =
    parts.length > 1 ? `${parts[0]?.[0] ?? ''}${parts[1]?.[0] ?? ''}` : (parts[0]?.slice(0, 2) ?? '');
  return letters.toUpperCase() || '?';
}

export function Avatar({ name, url, size = 48, alt }: Props) {
  const style = { width: size, height: size, fontSize: Math.round(size * 0.38) };
  if (url)
    return (
      <img className={styles.avatar} style={style} src={url} width={size} height={size} alt={alt ?? ''} />
    );
  // alt="" marks the avatar decorative (its button or row is labelled already), as for an <img>: the
  // initials are drawn by CSS, so they are not text of the labelled control (WCAG 2.5.3).
  if (alt === '')
    return (
      <span
        className={`${styles.avatar} ${styles.fallback} ${styles.drawn}`}
        style={style}
        aria-hidden="true"
        data-initials={initials(name)}
      />
    );
  return (
    <span className={`${styles.avatar} ${styles.fallback}`} style={style} role="img" aria-label={alt ?? name}>
      <span aria-hidden="true">{initials(name)}</span>
    </span>
  );
}
