/** What the first scripts need of moderation: the shell entry's name (the screens' texts: components/strings.ts). */
export const moderationEntryStrings = {
  entry: 'Модерация',
} as const;
