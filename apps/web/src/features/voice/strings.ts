import { plural } from '../../shared/i18n/ru.ts';

/**
 * Group voice chat texts. The errors are the spec's (§8); the spec names the controls (§2.3: minimise,
 * mute, leave, end for everyone) without their wording, so the rest is ours, in the product's voice.
 */
export const voiceStrings = {
  title: 'Голосовой чат',
  join: 'Присоединиться',
  start: 'Начать голосовой чат',
  leave: 'Выйти',
  endForAll: 'Завершить для всех',
  minimise: 'Свернуть',
  expand: 'Развернуть',
  micOn: 'Включить микрофон',
  micOff: 'Выключить микрофон',
  connecting: 'Подключение…',
  speaking: 'говорит',
  muted: 'микрофон выключен',
  raiseHand: 'Поднять руку',
  lowerHand: 'Опустить руку',
  handRaised: 'поднята рука',
  lowerHandOf: (name: string) => `Опустить руку: ${name}`,
  participants: (n: number) => `${n} ${plural(n, ['участник', 'участника', 'участников'])}`,
  // Spec §8, exactly.
  sessionDataMissing: 'Ошибка: не удалось получить данные сессии',
  connectFailed: 'Не удалось подключиться к голосовому чату',
  connectError: (reason: string) => `Ошибка при подключении к голосовому чату: ${reason}`,
  dismiss: 'Закрыть',
} as const;
