/** The search feature's user-visible strings (Russian). */
export const searchStrings = {
  title: 'Поиск',
  placeholder: 'Люди, публикации, хэштеги',
  messengerPlaceholder: 'Люди, группы, каналы, сообщения',
  label: 'Что найти',
  tabs: { all: 'Всё', people: 'Люди', posts: 'Публикации', hashtags: 'Хэштеги' },
  tabsLabel: 'Что показать',
  recent: 'Недавние запросы',
  clearRecent: 'Очистить',
  empty: 'Ничего не найдено',
  error: 'Не удалось выполнить поиск',
  more: 'Показать ещё',
  posts: (n: number) => `${n} ${plural(n, 'публикация', 'публикации', 'публикаций')}`,
  postWithoutCaption: 'Публикация без подписи',
  tagTitle: (tag: string) => `#${tag}`,
  tagEmpty: 'Публикаций с этим хэштегом пока нет',
  people: 'Люди',
  groups: 'Группы',
  channels: 'Каналы',
  messages: 'Сообщения',
  members: (n: number) => `${n} ${plural(n, 'участник', 'участника', 'участников')}`,
  resultsCount: (n: number) => `Найдено: ${n}`,
} as const;

function plural(n: number, one: string, few: string, many: string): string {
  const mod10 = n % 10;
  const mod100 = n % 100;
  if (mod10 === 1 && mod100 !== 11) return one;
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return few;
  return many;
}
