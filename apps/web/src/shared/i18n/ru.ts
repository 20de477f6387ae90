import { MediaErrorText } from '@kadr/contract/browser';
import { defineStrings } from './catalog.ts';

/**
 * The strings the whole app shares: the app's own texts, page titles, the error screen, last-seen and the
 * media plane's device errors. A feature's texts live in its `strings.ts`. Texts quoted in the product spec
 * are copied exactly; the server's own Russian error texts come from the contract and are shown as sent.
 */
export const ru = defineStrings({
  app: {
    name: 'Kadr',
    loading: 'Загрузка...',
    loadingSlow: 'Загрузка занимает больше времени, чем обычно...',
    networkError: 'Нет соединения с сервером. Проверьте подключение.',
    unknownError: 'Что-то пошло не так. Попробуйте снова.',
    updateAvailable: 'Доступна новая версия приложения. Обновить сейчас?',
    back: 'Назад',
    close: 'Закрыть',
    cancel: 'Отмена',
    /** Shown in the chat header instead of «онлайн» while the device has no connection (as Telegram). */
    waitingForNetwork: 'Ожидание сети…',
  },
  /** Document titles, one per page (spec §2.1 routes); the app's name is appended. */
  titles: {
    login: 'Вход',
    register: 'Регистрация',
    home: 'Главная',
    media: 'Медиа',
    post: 'Публикация',
    messenger: 'Мессенджер',
    chat: (username: string) => `Чат · @${username}`,
    profile: (username: string) => `@${username}`,
    settings: 'Настройки',
    live: 'Прямой эфир',
    call: 'Звонок',
  },
  /** Credits the licences of what ships inside the app ask for (settings → «О приложении»). */
  licences: {
    title: 'Лицензии',
    twemoji:
      'Эмодзи — Twemoji, © Twitter, Inc и другие авторы, лицензия CC-BY 4.0 (creativecommons.org/licenses/by/4.0)',
  },
  errorScreen: {
    title: 'Что-то пошло не так',
    subtitle: 'Попробуйте обновить страницу',
    reload: 'Обновить страницу',
    retry: 'Попробовать снова',
  },
  lastSeen: {
    online: 'онлайн',
    justNow: 'был(а) только что',
    minutes: ['минуту', 'минуты', 'минут'] as const,
    hours: ['час', 'часа', 'часов'] as const,
    days: ['день', 'дня', 'дней'] as const,
    ago: (amount: string) => `был(а) ${amount} назад`,
    onDate: (date: string) => `был(а) ${date}`,
  },
  /** Dates as 'ru-RU' writes them after a day number (shared/lib/ru-format.ts): `month: 'short'` and `'long'`. */
  dates: {
    monthsShort: [
      'янв.',
      'февр.',
      'мар.',
      'апр.',
      'мая',
      'июн.',
      'июл.',
      'авг.',
      'сент.',
      'окт.',
      'нояб.',
      'дек.',
    ] as const,
    monthsLong: [
      'января',
      'февраля',
      'марта',
      'апреля',
      'мая',
      'июня',
      'июля',
      'августа',
      'сентября',
      'октября',
      'ноября',
      'декабря',
    ] as const,
    /** The year after a date: «5 декабря 2026 г.». */
    withYear: (date: string, year: number) => `${date} ${year} г.`,
  },
  // ── media plane: live streams, calls, voice rooms (owned by apps/web/src/shared/livekit) ──
  mediaPlane: {
    cameraBlocked: 'Доступ к камере заблокирован. Проверьте разрешения браузера и перезапустите приложение.',
    cameraNotFound: 'Камера не найдена. Подключите устройство или проверьте настройки.',
    cameraUnavailable: 'Выбранная камера недоступна. Попробуйте переключить устройство.',
    cameraFailed: 'Не удалось получить доступ к камере',
    microphoneBlocked:
      'Доступ к микрофону заблокирован. Проверьте разрешения браузера и перезапустите приложение.',
    microphoneNotFound: 'Микрофон не найден. Подключите устройство или проверьте настройки.',
    microphoneUnavailable: 'Выбранный микрофон недоступен. Попробуйте переключить устройство.',
    microphoneFailed: 'Не удалось получить доступ к микрофону',
    publishForbidden: 'В этой комнате у вас нет права выступать',
    audioBlocked: 'Чтобы услышать эфир, включите звук',
    enableAudio: 'Включить звук',
    enableAudioFailed: 'Не удалось включить звук',
    reconnecting: 'Восстанавливаем подключение...',
    streamConnectionLost: 'Подключение к эфиру потеряно',
    mediaServerUnavailable: MediaErrorText.mediaServerUnavailable,
    // No `RTCPeerConnection` (WebKitGTK release builds leave WebRTC out): nothing on the media plane can connect
    // here (shared/livekit/webrtc-support.ts). Said before the server is asked for anything.
    /** A call: pressing call, or answering one. */
    callsWebrtcUnsupported:
      'Этот браузер не поддерживает звонки (в нём нет WebRTC). Откройте Kadr в другом браузере',
    /** A group voice chat: starting or joining one. */
    voiceWebrtcUnsupported:
      'Этот браузер не поддерживает голосовые чаты (в нём нет WebRTC). Откройте Kadr в другом браузере',
    /** Watching a live stream (its chat still works). */
    streamWebrtcUnsupported:
      'Этот браузер не может показать эфир (в нём нет WebRTC). Откройте Kadr в другом браузере',
    /** Starting a live stream (or hosting one from here). */
    streamHostWebrtcUnsupported:
      'Этот браузер не может вести эфир (в нём нет WebRTC). Откройте Kadr в другом браузере',
  },
});

/** Russian plural form for a count: [one, few, many] — 1 подписчик, 2 подписчика, 5 подписчиков. */
export function plural(count: number, forms: readonly [string, string, string]): string {
  const n = Math.abs(count) % 100;
  const last = n % 10;
  if (n > 10 && n < 20) return forms[2];
  if (last === 1) return forms[0];
  if (last >= 2 && last <= 4) return forms[1];
  return forms[2];
}
