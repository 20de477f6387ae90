/**
 * What the demo instance shows: people, their posts (real photographs and clips from Debian packages,
 * scripts/demo/media-sources.ts, prepared into assets/demo by `npm run demo:prepare`), Russian captions
 * that say what is in the picture, comments, stories, personal chats, a live-looking group and a channel.
 * Every item has a stable key, so seeding twice adds nothing twice.
 */

export interface DemoUser {
  username: string;
  name: string;
  bio: string;
  /** A prepared photo, cut square for the avatar. */
  avatar: string;
}

export const DEMO_USERS: DemoUser[] = [
  {
    username: 'demo_anna',
    name: 'Анна Смирнова',
    bio: 'Снимаю макро: капли, цветы и всех, кто ползает по травинкам.',
    avatar: 'ladybird',
  },
  {
    username: 'demo_boris',
    name: 'Борис Ковалёв',
    bio: 'Горы, походы и озёра. Летом — под водой.',
    avatar: 'mountain-trail',
  },
  {
    username: 'demo_vera',
    name: 'Вера Павлова',
    bio: 'Птицы, цветы на даче и звёздное небо.',
    avatar: 'nuthatch',
  },
  {
    username: 'demo_gleb',
    name: 'Глеб Орлов',
    bio: 'Ночной город и космос. Веду канал «Звёздное небо».',
    avatar: 'earth-horizon',
  },
];

export interface DemoPost {
  /** Stable key: a post whose author already has one with this caption is not added again. */
  author: string;
  caption: string;
  /** Prepared media names: photos (a carousel when more than one) or one video. */
  media: string[];
  likedBy: string[];
  comments: [string, string][];
}

/** Oldest first: the last one is the newest in the feed. */
export const DEMO_POSTS: DemoPost[] = [
  {
    author: 'demo_boris',
    caption: 'Три дня в горах: осенние склоны, тропа к вершинам и ручей в ущелье #горы #походы',
    media: ['autumn-slope', 'mountain-trail', 'forest-stream'],
    likedBy: ['demo_anna', 'demo_vera', 'demo_gleb'],
    comments: [
      ['demo_anna', 'Вторая фотография — как из кино'],
      ['demo_gleb', 'Сколько километров прошли?'],
      ['demo_boris', 'Около сорока, последний день — под дождём'],
    ],
  },
  {
    author: 'demo_anna',
    caption: 'Инжир на завтрак — сезон наконец начался #еда #утро',
    media: ['fig'],
    likedBy: ['demo_vera'],
    comments: [['demo_vera', 'Какой цвет! Тарелка просто огонь']],
  },
  {
    author: 'demo_gleb',
    caption: 'Галактики из архива «Хаббла»: Водоворот, Сомбреро и туманность Улитка #космос',
    media: ['whirlpool', 'sombrero', 'helix'],
    likedBy: ['demo_vera', 'demo_boris'],
    comments: [['demo_vera', 'Улитка похожа на глаз']],
  },
  {
    author: 'demo_vera',
    caption: 'Какаду решил познакомиться с камерой поближе #птицы #животные',
    media: ['cockatoo'],
    likedBy: ['demo_anna', 'demo_boris', 'demo_gleb'],
    comments: [
      ['demo_anna', 'Он явно хочет попробовать объектив на вкус'],
      ['demo_gleb', 'Звук со двора тоже прекрасный'],
    ],
  },
  {
    author: 'demo_anna',
    caption: 'Соседские собаки каждое утро встречают меня у калитки #собаки #животные',
    media: ['dogs'],
    likedBy: ['demo_vera', 'demo_gleb'],
    comments: [['demo_vera', 'Какие серьёзные лица']],
  },
  {
    author: 'demo_boris',
    caption: 'Ныряю у скал: пузыри, камни и солнце сквозь воду #море #лето',
    media: ['diver'],
    likedBy: ['demo_gleb'],
    comments: [['demo_gleb', 'Вода выглядит холодной']],
  },
  {
    author: 'demo_vera',
    caption: 'Клумба на даче расцвела: жёлтые и оранжевые, как я и хотела #цветы #дача',
    media: ['yellow-flower', 'garden-flower', 'fresh-flower'],
    likedBy: ['demo_anna', 'demo_boris'],
    comments: [['demo_anna', 'Оранжевый — бархатец? Очень красиво']],
  },
  {
    author: 'demo_anna',
    caption: 'Капля за мгновение до всплеска — сто попыток ради одного кадра #макро',
    media: ['water-drop'],
    likedBy: ['demo_vera', 'demo_gleb', 'demo_boris'],
    comments: [['demo_boris', 'Терпение уровня «бог»']],
  },
  {
    author: 'demo_gleb',
    caption: 'Ночной город снизу вверх: небоскрёбы светятся, как аквариумы #город #ночь',
    media: ['night-city'],
    likedBy: ['demo_anna', 'demo_vera'],
    comments: [['demo_anna', 'Хочу такой же вечер']],
  },
  {
    author: 'demo_boris',
    caption: 'Лодки на озере на закате. Утром уходим на тот берег #озеро #путешествия',
    media: ['boats'],
    likedBy: ['demo_anna', 'demo_vera', 'demo_gleb'],
    comments: [],
  },
  {
    author: 'demo_vera',
    caption: 'Поползень спускается по стволу головой вниз — так умеет только он #птицы #природа',
    media: ['nuthatch'],
    likedBy: ['demo_anna', 'demo_gleb'],
    comments: [['demo_gleb', 'Вот это резкость!']],
  },
  {
    author: 'demo_anna',
    caption: 'Одуванчики на закате — последний тёплый вечер лета #лето #природа',
    media: ['dandelions'],
    likedBy: ['demo_vera'],
    comments: [],
  },
  {
    author: 'demo_gleb',
    caption: 'Обеденный перерыв у кампуса: все куда-то спешат #город #люди',
    media: ['street'],
    likedBy: ['demo_boris'],
    comments: [['demo_boris', 'Узнаю это место']],
  },
  {
    author: 'demo_boris',
    caption: 'Лесная тропа после дождя, пахнет хвоей #лес #природа',
    media: ['forest-path'],
    likedBy: ['demo_anna', 'demo_vera'],
    comments: [['demo_vera', 'Хочу туда прямо сейчас']],
  },
  {
    author: 'demo_anna',
    caption: 'Кленовый лист в листве: осень пришла тихо #осень',
    media: ['maple-leaf'],
    likedBy: ['demo_vera', 'demo_boris'],
    comments: [],
  },
  {
    author: 'demo_gleb',
    caption: 'Горизонт Земли с орбиты: тонкая голубая линия — вся наша атмосфера #космос',
    media: ['earth-horizon'],
    likedBy: ['demo_anna', 'demo_vera', 'demo_boris'],
    comments: [['demo_anna', 'Мурашки']],
  },
  {
    author: 'demo_vera',
    caption: 'Капли дождя на листьях — гроза прошла, можно в сад #дождь #дача',
    media: ['rain-drops'],
    likedBy: ['demo_anna'],
    comments: [],
  },
  {
    author: 'demo_boris',
    caption: 'Причал у озера, вода как зеркало #озеро',
    media: ['pier', 'dune'],
    likedBy: ['demo_gleb', 'demo_anna'],
    comments: [
      ['demo_anna', 'А вторая — это где?'],
      ['demo_boris', 'Дюны на побережье, в тот же отпуск'],
    ],
  },
];

export const DEMO_FOLLOWS: [string, string][] = [
  ['demo_anna', 'demo_vera'],
  ['demo_anna', 'demo_boris'],
  ['demo_boris', 'demo_anna'],
  ['demo_boris', 'demo_gleb'],
  ['demo_vera', 'demo_anna'],
  ['demo_vera', 'demo_gleb'],
  ['demo_gleb', 'demo_vera'],
  ['demo_gleb', 'demo_boris'],
  ['demo_gleb', 'demo_anna'],
];

/** Personal chats: [from, to, text], in order. Each has a stable temp_id, so a re-run sends nothing twice. */
export const DEMO_MESSAGES: [string, string, string][] = [
  ['demo_anna', 'demo_vera', 'Привет! Видела твоего поползня — где ты его сняла?'],
  ['demo_vera', 'demo_anna', 'В парке у старой беседки. Пойдём в субботу?'],
  ['demo_anna', 'demo_vera', 'Давай! Возьму макрообъектив'],
  ['demo_gleb', 'demo_boris', 'Сегодня ночью ясно, смотрим Юпитер?'],
  ['demo_boris', 'demo_gleb', 'Конечно, приходи к десяти'],
];

/** What the account that asked for the demo gets in its messenger (it is added to the group and the channel too). */
export const DEMO_WELCOME: { from: string; text: string } = {
  from: 'demo_vera',
  text: 'Привет! Я Вера. Загляни в группу «Фотопрогулки» — в субботу идём в парк',
};

export interface DemoGroup {
  owner: string;
  name: string;
  /** Public groups have an address and are found by chat search. */
  slug: string | null;
  description: string;
  avatar: string;
  members: string[];
  messages: { from: string; text: string; photo?: string }[];
}

export const DEMO_GROUPS: DemoGroup[] = [
  {
    owner: 'demo_anna',
    name: 'Фотопрогулки',
    slug: 'photowalks',
    description: 'Гуляем по городу и лесу с камерой и делимся кадрами',
    avatar: 'dandelions',
    members: ['demo_vera', 'demo_boris', 'demo_gleb'],
    messages: [
      { from: 'demo_anna', text: 'Всем привет! В субботу идём в парк, сбор у входа в 11:00' },
      { from: 'demo_vera', text: 'Я буду! Возьму макрообъектив' },
      { from: 'demo_boris', text: 'Могу подвезти двоих, пишите' },
      { from: 'demo_vera', text: 'Вот что получилось в прошлый раз', photo: 'garden-flower' },
      { from: 'demo_gleb', text: 'Если не будет дождя — я с вами' },
      { from: 'demo_anna', text: '**Не забудьте** запасные аккумуляторы, гуляем до вечера' },
    ],
  },
];

export interface DemoChannel {
  owner: string;
  name: string;
  slug: string;
  description: string;
  avatar: string;
  subscribers: string[];
  posts: { text: string; photo?: string }[];
}

export const DEMO_CHANNELS: DemoChannel[] = [
  {
    owner: 'demo_gleb',
    name: 'Звёздное небо',
    slug: 'starry_sky',
    description: 'Что видно над городом сегодня ночью',
    avatar: 'whirlpool',
    subscribers: ['demo_anna', 'demo_boris', 'demo_vera'],
    posts: [
      { text: 'На этой неделе Юпитер виден после полуночи на юго-востоке', photo: 'jupiter' },
      {
        text: 'Комета в бинокль — размытое пятнышко с хвостом. Смотрите на запад после заката',
        photo: 'comet',
      },
      { text: 'Полнолуние в среду. **Лучшее время** для кратеров — за пару дней до него' },
    ],
  },
];

/** Stories of the last day: prepared 9:16 pictures with a caption. */
export const DEMO_STORIES: { author: string; media: string; caption: string }[] = [
  { author: 'demo_boris', media: 'story-storm', caption: 'Гроза догоняет нас на трассе' },
  { author: 'demo_anna', media: 'story-seeds', caption: 'Утро на даче' },
  { author: 'demo_boris', media: 'story-sunset', caption: 'Закат с перевала' },
  { author: 'demo_vera', media: 'story-moss', caption: 'Мох в лесу — как маленький город сверху' },
  { author: 'demo_gleb', media: 'story-forest', caption: 'Вышел погулять без телефона. Почти' },
  { author: 'demo_anna', media: 'story-dogs', caption: 'Мои утренние встречающие' },
];

export const DEMO_PASSWORD = 'demo-password-2024';
