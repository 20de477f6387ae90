import { defineStrings } from '../../shared/i18n/catalog.ts';
/** User-visible strings of stories and the home page (spec §2.5, §4.10, §5, §8 copied exactly where given). */
export const storiesStrings = defineStrings({
  homeTitle: 'Главная',
  /** A story reply in the messenger's bubble. */
  replyPreview: {
    label: 'Ответ на историю',
    expired: 'История больше недоступна',
    open: 'Открыть историю',
  },
  /** A `?story=<id>` link to a story that is gone (#18 item 3). */
  linkMissing: {
    title: 'История не найдена',
    hint: 'Истории живут 24 часа: эту удалили, она истекла или ссылка неверна.',
    back: 'Понятно',
  },
  homeFeed: 'Главная лента',
  homeEmptyTitle: 'Здесь появятся публикации тех, на кого вы подписаны',
  homeEmptyText: 'Найдите интересных людей в ленте и подпишитесь на них, или опубликуйте что-нибудь сами.',
  homeEmptyAction: 'Открыть ленту',
  homeLoadFailed: 'Не удалось загрузить публикации',
  openPost: (n: number) => `Открыть публикацию ${n}`,
  strip: 'Истории',
  yourStory: 'Ваша история',
  addStory: 'Добавить историю',
  openStories: (name: string, unviewed: boolean) => `Истории ${name}${unviewed ? ', есть новые' : ''}`,
  uploading: (percent: number) => `Загрузка истории: ${percent}%`,
  processing: 'История обрабатывается',
  uploadFailed: 'Ошибка при загрузке. Попробуйте снова.',
  uploadFailedShort: 'Ошибка',
  retryUpload: 'Повторить',
  dismissUpload: 'Убрать',
  pullToRefresh: 'Потяните, чтобы обновить',
  refreshing: 'Обновление...',
  // Viewer (§4.10)
  viewer: (name: string) => `Истории ${name}`,
  close: 'Закрыть',
  previous: 'Предыдущая история',
  next: 'Следующая история',
  pause: 'Пауза',
  like: 'Нравится',
  unlike: 'Больше не нравится',
  likes: (n: number) => `${n}`,
  replyPlaceholder: 'Ответить...',
  send: 'Отправить',
  replySent: 'Ответ отправлен',
  options: 'Ещё',
  share: 'Поделиться',
  copyLink: 'Копировать ссылку',
  copied: 'Ссылка скопирована',
  report: 'Пожаловаться',
  reportTitle: 'Почему вы жалуетесь на эту историю?',
  reported: 'Жалоба отправлена. Эта история скрыта от вас.',
  reasons: {
    spam: 'Спам',
    violence: 'Насилие',
    nudity: 'Откровенные материалы',
    hate: 'Враждебные высказывания',
    other: 'Другое',
  },
  views: (n: number) => `Просмотры: ${n}`,
  viewersTitle: 'Просмотры',
  expiresIn: (expires: string, now: number) => {
    const minutes = Math.max(0, Math.ceil((new Date(expires).getTime() - now) / 60_000));
    if (minutes < 60) return `исчезнет через ${minutes} мин`;
    return `исчезнет через ${Math.floor(minutes / 60)} ч`;
  },
  /** Beside a viewer in the owner's list who also liked the story. */
  viewerLiked: 'нравится',
  empty: 'Пока ничего нет',
  delete: 'Удалить',
  deleteConfirm: 'Удалить эту историю?',
  brokenImage: 'Не удалось загрузить изображение',
  filtered: 'Вы скрыли подобное от себя',
  reveal: 'Посмотреть',
  timeAgo: (created: string, now: number) => {
    const minutes = Math.floor((now - new Date(created).getTime()) / 60_000);
    if (minutes < 1) return 'только что';
    if (minutes < 60) return `${minutes} мин назад`;
    return `${Math.floor(minutes / 60)} ч назад`;
  },
  // Editor (§2.3, §5)
  createStory: 'История',
  editorTitle: 'Новая история',
  pickFile: 'Выберите изображение или видео',
  pickHint: 'Фото обрезается до 9:16, из видео выбирается отрезок до 120 секунд',
  wrongType: 'Пожалуйста, выберите видео или изображения',
  zoom: 'Масштаб',
  crop: 'Кадр',
  text: 'Текст',
  draw: 'Рисование',
  addText: 'Добавить текст',
  textPlaceholder: 'Ваш текст',
  textSize: 'Размер текста',
  brushSize: 'Размер кисти',
  colour: (name: string) => `Цвет: ${name}`,
  undo: 'Отменить',
  segmentStart: 'Начало отрывка, с',
  segmentDuration: 'Длительность, с',
  segmentRange: (from: number, to: number, total: number) =>
    `Отрывок ${from.toFixed(1)}–${to.toFixed(1)} с из ${total.toFixed(1)} с`,
  caption: 'Подпись',
  captionPlaceholder: 'Добавьте подпись...',
  counter: (n: number, max: number) => `${n}/${max}`,
  publish: 'Опубликовать',
  cancel: 'Отмена',
  back: 'Назад',
});

/** The editor's 7-colour palette (spec §5). */
export const STORY_PALETTE = [
  { value: '#ffffff', name: 'белый' },
  { value: '#111111', name: 'чёрный' },
  { value: '#ff3b30', name: 'красный' },
  { value: '#ff9500', name: 'оранжевый' },
  { value: '#ffcc00', name: 'жёлтый' },
  { value: '#34c759', name: 'зелёный' },
  { value: '#0a84ff', name: 'синий' },
] as const;

/** Spec §9 figures used by the viewer and the strip. */
export const STORY_UI = {
  tickMs: 50,
  swipeX: 60,
  swipeDown: 80,
  pullThreshold: 70,
  pullMax: 140,
  holdMs: 200,
  imageQuality: 0.95,
  textSize: { min: 20, max: 140, initial: 48 },
  brushSize: { min: 4, max: 40, initial: 10 },
} as const;
