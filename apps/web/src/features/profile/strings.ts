import { defineStrings } from '../../shared/i18n/catalog.ts';

/** Profile strings (spec §4.9): the card, the follow button, the stats and the grid of posts. */
export const profileStrings = defineStrings({
  notFound: 'Пользователь не найден',
  loadFailed: 'Не удалось загрузить профиль',
  retry: 'Повторить попытку',
  follow: 'Подписаться',
  unfollow: 'Отписаться',
  followFailed: 'Не удалось изменить подписку',
  edit: 'Редактировать профиль',
  message: 'Написать',
  avatarAlt: (name: string) => `Аватар: ${name}`,
  stats: 'Статистика профиля',
  posts: ['публикация', 'публикации', 'публикаций'] as const,
  followers: ['подписчик', 'подписчика', 'подписчиков'] as const,
  following: ['подписка', 'подписки', 'подписок'] as const,
  profilePosts: {
    title: 'Публикации',
    empty: 'Пока нет публикаций',
    open: (index: number) => `Открыть публикацию ${index}`,
  },
});
