import { plural, ru } from '../../shared/i18n/ru.ts';

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
  endForAllConfirm: {
    title: 'Завершить голосовой чат для всех?',
    text: 'Голосовой чат закончится у всех участников.',
  },
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
  /** No WebRTC in this browser (WebKitGTK release builds): said instead of starting or joining. */
  webrtcUnsupported: ru.mediaPlane.voiceWebrtcUnsupported,
  dismiss: 'Закрыть',
} as const;
