/**
 * The lines the server writes into a group when its membership changes (message_type 'service'), shown
 * centred in the history and as the chat list's preview. Russian verbs agree with a gender the app does not
 * know, so both endings are written, as many Russian apps do. Schema-free: the browser may import it.
 */
export const GroupServiceText = {
  joined: (name: string) => `${name} присоединился(-ась) к группе`,
  added: (actor: string, name: string) => `${actor} добавил(а) ${name} в группу`,
  left: (name: string) => `${name} покинул(а) группу`,
  removed: (actor: string, name: string) => `${actor} удалил(а) ${name} из группы`,
} as const;
