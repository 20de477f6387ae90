import type { ReactNode } from 'react';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { groupsStrings as S } from '../strings.ts';
import g from './groups.module.css';

/** A text action on a person's row, named with the person so a screen reader hears whom it acts on. */
export function MemberAction({ label, name, onClick }: { label: string; name: string; onClick: () => void }) {
  return (
    <button type="button" className={g.link2} aria-label={`${label}: ${name}`} onClick={onClick}>
      {label}
    </button>
  );
}

/** A person in a group's or channel's list: avatar, name, role, and the actions the viewer may take. */
export function MemberRow({
  person,
  testId,
  children,
}: {
  person: { name: string; avatar_url: string | null; role: keyof typeof S.roles };
  testId: string;
  children?: ReactNode;
}) {
  return (
    <li className={g.member} data-testid={testId}>
      <Avatar name={person.name} url={person.avatar_url} size={32} alt="" />
      <span className={g.memberName}>{person.name}</span>
      <span className={g.muted}>{S.roles[person.role]}</span>
      {children ? <div className={g.memberActions}>{children}</div> : null}
    </li>
  );
}
