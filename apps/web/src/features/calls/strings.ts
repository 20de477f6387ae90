import { CallEntryText } from '@kadr/contract/browser';
import { defineStrings } from '../../shared/i18n/catalog.ts';

/**
 * Call texts. The chat entries are the spec's (§1: 'Исходящий звонок · 3:12', 'Пропущенный звонок',
 * 'Отклонённый звонок'); the spec names the call screens (§2.3) but shows none of their wording, so
 * the rest is ours, in the product's voice.
 */
export const callsStrings = defineStrings({
  entry: CallEntryText,
  audioCall: 'Аудиозвонок',
  videoCall: 'Видеозвонок',
  incomingAudio: 'Входящий аудиозвонок',
  incomingVideo: 'Входящий видеозвонок',
  acceptAudio: 'Ответить без видео',
  acceptVideo: 'Ответить с видео',
  reject: 'Отклонить',
  end: 'Завершить',
  minimise: 'Свернуть',
  expand: 'Развернуть',
  micOn: 'Включить микрофон',
  micOff: 'Выключить микрофон',
  cameraOn: 'Включить камеру',
  cameraOff: 'Выключить камеру',
  flipCamera: 'Сменить камеру',
  peerMicMuted: 'Собеседник выключил микрофон',
  state: {
    ringingOutgoing: 'Вызов…',
    ringingIncoming: 'Звонит…',
    connecting: 'Соединение…',
    active: 'Идёт звонок',
    ended: 'Звонок завершён',
    rejected: 'Звонок отклонён',
    failed: 'Не удалось соединиться',
    busy: 'Абонент занят',
    missed: 'Нет ответа',
    cancelled: 'Звонок отменён',
  },
  stats: {
    rtt: 'Задержка',
    loss: 'Потери',
    bitrate: 'Битрейт',
    ms: 'мс',
    kbps: 'кбит/с',
    quality: { good: 'Хорошее соединение', fair: 'Среднее соединение', poor: 'Плохое соединение' },
    show: 'Показать подробности',
    hide: 'Скрыть подробности',
  },
  e2ee: {
    label: 'Сквозное шифрование',
    fingerprintHint: 'Если у собеседника те же символы, звонок защищён сквозным шифрованием',
    unsupported: 'Этот браузер не поддерживает сквозное шифрование звонков: звонок пройдёт без него',
    peerUnsupported: 'Браузер собеседника не поддерживает сквозное шифрование: звонок идёт без него',
  },
  leaveWarning: 'Идёт звонок. Покинуть страницу?',
  you: 'Вы',
  error: 'Ошибка звонка',
});
