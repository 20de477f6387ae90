import { groupsStrings as S } from '../strings.ts';

interface Props {
  name: string;
  onName: (name: string) => void;
  description: string;
  onDescription: (description: string) => void;
  /** Height of the description box: short in the create form, taller when editing. */
  rows?: number;
}

/** A group's or channel's name and description, as the create form and the edit sheet ask for them. */
export function ChatNameFields({ name, onName, description, onDescription, rows = 2 }: Props) {
  return (
    <>
      <label>
        {S.name}
        <input
          type="text"
          value={name}
          maxLength={64}
          required
          onChange={(e) => onName(e.currentTarget.value)}
        />
      </label>
      <label>
        {S.description}
        <textarea
          value={description}
          maxLength={255}
          rows={rows}
          onChange={(e) => onDescription(e.currentTarget.value)}
        />
      </label>
    </>
  );
}
