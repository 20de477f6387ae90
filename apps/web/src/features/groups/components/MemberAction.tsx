import g from './groups.module.css';

/** A text action on a person's row, named with the person so a screen reader hears whom it acts on. */
export function MemberAction({ label, name, onClick }: { label: string; name: string; onClick: () => void }) {
  return (
    <button type="button" className={g.link2} aria-label={`${label}: ${name}`} onClick={onClick}>
      {label}
    </button>
  );
}
