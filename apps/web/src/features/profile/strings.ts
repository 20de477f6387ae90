import { defineStrings } from '../../shared/i18n/catalog.ts';

/** Profile strings (spec §4.9): the card, the follow button, the stats and the grid of posts. */
export const profileStrings = defineStrings({
  notFound: 'Пользователь не найден',
  loadFailed: 'Не удалось загрузить профиль',
  retry: 'Повторить попытку',
  follow: 'Подписаться',
  unfollow: 'Отписаться',
  requested: 'Запрос отправлен',
  cancelRequest: 'Отменить запрос на подписку',
  privateAccount: 'Это закрытый аккаунт',
  privateAccountHint: 'Подпишитесь, чтобы видеть публикации, истории и подписки',
  followFailed: 'Не удалось изменить подписку',
  edit: 'Редактировать профиль',
  report: 'Пожаловаться',
  message: 'Написать',
  avatarAlt: (name: string) => `Аватар: ${name}`,
  stats: 'Статистика профиля',
  posts: ['публикация', 'публикации', 'публикаций'] as const,
  followers: ['подписчик', 'подписчика', 'подписчиков'] as const,
  following: ['подписка', 'подписки', 'подписок'] as const,
  /** The follower and following lists a profile's counts open. */
  followList: {
    followers: 'Подписчики',
    following: 'Подписки',
    open: (count: string, label: string) => `${count} ${label}: открыть список`,
    emptyFollowers: 'Пока нет подписчиков',
    emptyFollowing: 'Пока ни на кого не подписан',
    loadFailed: 'Не удалось загрузить список',
    retry: 'Повторить попытку',
    more: 'Показать ещё',
    follow: 'Подписаться',
    unfollow: 'Отписаться',
    followPerson: (name: string) => `Подписаться на ${name}`,
    unfollowPerson: (name: string) => `Отписаться от ${name}`,
    you: 'Это вы',
  },
  profilePosts: {
    title: 'Публикации',
    empty: 'Пока нет публикаций',
    open: (index: number) => `Открыть публикацию ${index}`,
  },
});
