import { ErrorText } from '@kadr/contract';

/**
 * Every user-visible string of the web app. Texts quoted in the product spec are copied exactly;
 * the server's own Russian error texts come from `ErrorText` in the contract and are shown as sent.
 */
export const ru = {
  app: {
    name: 'Kadr',
    loading: 'Загрузка...',
    loadingSlow: 'Загрузка занимает больше времени, чем обычно...',
    networkError: 'Нет соединения с сервером. Проверьте подключение.',
    unknownError: 'Что-то пошло не так. Попробуйте снова.',
    updateAvailable: 'Доступна новая версия приложения. Обновить сейчас?',
    back: 'Назад',
  },
  errorScreen: {
    title: 'Что-то пошло не так',
    subtitle: 'Попробуйте обновить страницу',
    reload: 'Обновить страницу',
    retry: 'Попробовать снова',
  },
  auth: {
    loginTitle: 'Вход',
    registerTitle: 'Регистрация',
    tagline: 'Видео, истории, эфиры и общение',
    username: 'Имя пользователя',
    usernameHint: 'От 3 до 32 символов: латинские буквы a–z, цифры и _',
    name: 'Имя',
    password: 'Пароль',
    passwordHint: 'Не короче 8 символов',
    showPassword: 'Показать пароль',
    hidePassword: 'Скрыть пароль',
    submitLogin: 'Войти',
    submitRegister: 'Зарегистрироваться',
    submitting: 'Подождите...',
    noAccount: 'Нет аккаунта?',
    toRegister: 'Зарегистрироваться',
    haveAccount: 'Уже есть аккаунт?',
    toLogin: 'Войти',
    required: 'Заполните это поле',
    logout: 'Выйти',
    loggingOut: 'Выходим...',
  },
  shell: {
    sections: {
      media: 'Медиа',
      home: 'Главная',
      messenger: 'Мессенджер',
    },
    navButton: (section: string) => `Навигация, сейчас: ${section}`,
    navButtonHint:
      'Перетащите влево или вправо либо используйте стрелки, чтобы сменить раздел. Нажмите, чтобы открыть меню',
    navRail: 'Разделы',
    contextButtons: 'Действия страницы',
    menu: 'Меню',
    openMenu: 'Открыть меню',
    profile: 'Профиль',
    settings: 'Настройки',
    logout: 'Выйти',
    entries: {
      modes: 'Режимы',
      search: 'Поиск',
      feedSettings: 'Настройки ленты',
      myActions: 'Мои действия',
      rotateVideo: 'Повернуть видео',
      deletePost: 'Удалить публикацию',
      add: 'Создать',
      notifications: 'Уведомления',
      createGroup: 'Создать группу',
      createChannel: 'Создать канал',
      reducedBadges: 'Упрощённые счётчики',
    },
  },
  home: {
    title: 'Главная',
    stub: 'Главная лента',
  },
  media: {
    loading: 'Загрузка...',
    tuning: 'Настраиваем ленту под вас',
    emptyTitle: 'Пока нет контента',
    emptySubtitle: 'Будьте первым, кто опубликует!',
  },
  messenger: {
    title: 'Мессенджер',
    noChats: 'Нет чатов',
    selectChat: 'Выберите чат для начала общения',
  },
  profile: {
    notFound: 'Пользователь не найден',
    loadFailed: 'Не удалось загрузить профиль',
    retry: 'Повторить попытку',
    follow: 'Подписаться',
    unfollow: 'Отписаться',
    followFailed: 'Не удалось изменить подписку',
    edit: 'Редактировать профиль',
    avatarAlt: (name: string) => `Аватар: ${name}`,
    stats: 'Статистика профиля',
    posts: ['публикация', 'публикации', 'публикаций'] as const,
    followers: ['подписчик', 'подписчика', 'подписчиков'] as const,
    following: ['подписка', 'подписки', 'подписок'] as const,
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
  validation: {
    usernameInvalid: ErrorText.usernameInvalid,
    nameInvalid: ErrorText.nameInvalid,
    passwordTooShort: ErrorText.passwordTooShort,
    bioTooLong: ErrorText.bioTooLong,
    imageRequired: ErrorText.imageRequired,
  },
  settings: {
    title: 'Настройки профиля',
    name: 'Имя',
    bio: 'О себе',
    bioCounter: (length: number, max: number) => `${length} из ${max}`,
    save: 'Сохранить',
    saving: 'Сохраняем...',
    saved: 'Изменения сохранены',
    avatar: 'Фото профиля',
    changeAvatar: 'Загрузить фото',
    uploadingAvatar: 'Загружаем фото...',
    avatarUpdated: 'Фото профиля обновлено',
    notImage: 'Выберите изображение',
    account: 'Аккаунт',
    logoutHint: 'Выйти из аккаунта на этом устройстве',
  },
} as const;

/** Russian plural form for a count: [one, few, many] — 1 подписчик, 2 подписчика, 5 подписчиков. */
export function plural(count: number, forms: readonly [string, string, string]): string {
  const n = Math.abs(count) % 100;
  const last = n % 10;
  if (n > 10 && n < 20) return forms[2];
  if (last === 1) return forms[0];
  if (last >= 2 && last <= 4) return forms[1];
  return forms[2];
}
