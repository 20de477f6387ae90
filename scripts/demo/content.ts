/**
 * What the demo feed shows: real photographs from Debian packages (the tagger's evaluation set,
 * apps/server/test/fixtures/eval-photos — sources and licences in docs/eval-photos.md), short
 * portrait videos made from them (slow pans with a soft sound bed), Russian captions with hashtags,
 * comments, and people who follow each other and talk.
 */

export interface DemoUser {
  username: string;
  name: string;
  bio: string;
  /** A photo of the set, cropped square for the avatar. */
  avatar: string;
}

export const DEMO_USERS: DemoUser[] = [
  {
    username: 'demo_anna',
    name: 'Анна Смирнова',
    bio: 'Фотографирую то, что вижу по дороге домой.',
    avatar: 'grace_hopper.jpg',
  },
  {
    username: 'demo_boris',
    name: 'Борис Ковалёв',
    bio: 'Мотоциклы, ракеты и всё, что едет быстро.',
    avatar: 'camera.jpg',
  },
  {
    username: 'demo_vera',
    name: 'Вера Павлова',
    bio: 'Кошки, цветы и звёздное небо.',
    avatar: 'chelsea.jpg',
  },
  { username: 'demo_gleb', name: 'Глеб Орлов', bio: 'Люблю космос и футбол.', avatar: 'astronaut.jpg' },
];

export interface DemoPost {
  author: string;
  caption: string;
  /** Photos of the set (a carousel when more than one), or a video made from one photo. */
  photos?: string[];
  video?: { photo: string; pan: 'left' | 'right' | 'zoom'; seconds: number };
  likedBy: string[];
  comments: [string, string][];
}

export const DEMO_POSTS: DemoPost[] = [
  {
    author: 'demo_vera',
    caption: 'Челси снова заняла моё кресло. Спорить бесполезно #котики #дом',
    photos: ['chelsea.jpg'],
    likedBy: ['demo_anna', 'demo_boris', 'demo_gleb'],
    comments: [
      ['demo_anna', 'Какой взгляд! Кресло теперь официально её.'],
      ['demo_gleb', 'Передавай привет Челси'],
    ],
  },
  {
    author: 'demo_gleb',
    caption: 'Старт через пару часов. Площадку подсвечивают прожекторами #космос #ночь',
    video: { photo: 'rocket.jpg', pan: 'zoom', seconds: 8 },
    likedBy: ['demo_boris', 'demo_vera'],
    comments: [['demo_boris', 'Мурашки! Смотрел прямую трансляцию?']],
  },
  {
    author: 'demo_anna',
    caption: 'Утро начинается с кофе и тишины #утро #еда',
    photos: ['coffee.jpg'],
    likedBy: ['demo_vera'],
    comments: [['demo_vera', 'Где это? Хочу туда']],
  },
  {
    author: 'demo_vera',
    caption: 'Глубокое поле Хаббла: каждая точка — галактика. Хорошо засыпать с такими мыслями #сон #космос',
    video: { photo: 'hubble_deep_field.jpg', pan: 'zoom', seconds: 10 },
    likedBy: ['demo_anna', 'demo_gleb'],
    comments: [['demo_gleb', 'Красота, аж дух захватывает']],
  },
  {
    author: 'demo_anna',
    caption: 'Прогулка по парку: дворец, пагода над озером и целая клумба георгинов #природа #город',
    photos: ['home.jpg', 'china.jpg', 'flower.jpg'],
    likedBy: ['demo_boris', 'demo_vera', 'demo_gleb'],
    comments: [
      ['demo_boris', 'Третье фото — как с открытки'],
      ['demo_vera', 'Георгины мои любимые!'],
    ],
  },
  {
    author: 'demo_boris',
    caption: 'Собрал к сезону. Осталось дождаться сухих дорог #мото #транспорт',
    video: { photo: 'motorcycle_left.jpg', pan: 'right', seconds: 8 },
    likedBy: ['demo_gleb'],
    comments: [['demo_gleb', 'Зверь! Покатаешь?']],
  },
  {
    author: 'demo_gleb',
    caption: 'Вечерняя игра во дворе, счёт не важен #спорт #футбол',
    photos: ['messi5.jpg'],
    likedBy: ['demo_boris'],
    comments: [],
  },
  {
    author: 'demo_vera',
    caption: 'Белка совсем не боится людей, позировала минут десять #природа #животные',
    photos: ['squirrel_cls.jpg', 'butterfly.jpg'],
    likedBy: ['demo_anna', 'demo_boris'],
    comments: [['demo_anna', 'Вторая фотография — просто шедевр']],
  },
  {
    author: 'demo_anna',
    caption: 'Фрукты с рынка — натюрморт сам собрался #еда',
    video: { photo: 'fruits.jpg', pan: 'left', seconds: 7 },
    likedBy: ['demo_vera', 'demo_gleb'],
    comments: [],
  },
  {
    author: 'demo_boris',
    caption: 'Луна в телескоп: кратеры видно даже с балкона #ночь #космос',
    photos: ['moon.jpg'],
    likedBy: ['demo_anna', 'demo_vera', 'demo_gleb'],
    comments: [['demo_vera', 'Какой у тебя телескоп?']],
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

/** Personal chats: [from, to, text]. */
export const DEMO_MESSAGES: [string, string, string][] = [
  ['demo_anna', 'demo_vera', 'Привет! Видела твою белку — это в Нескучном?'],
  ['demo_vera', 'demo_anna', 'Да, у старой беседки. Пойдём в субботу?'],
  ['demo_anna', 'demo_vera', 'Давай! Возьму камеру'],
  ['demo_gleb', 'demo_boris', 'Запуск переносят на завтра, смотрим вместе?'],
  ['demo_boris', 'demo_gleb', 'Конечно, приходи к восьми'],
];

/** A group chat: members, a photo from the set as its avatar, and a conversation (a photo where named). */
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
    description: 'Гуляем по городу с камерой и делимся кадрами',
    avatar: 'home.jpg',
    members: ['demo_vera', 'demo_boris', 'demo_gleb'],
    messages: [
      { from: 'demo_anna', text: 'Всем привет! В субботу идём в парк, сбор у входа в 11:00' },
      { from: 'demo_vera', text: 'Я буду! Возьму макрообъектив' },
      { from: 'demo_boris', text: 'Могу подвезти двоих, пишите' },
      { from: 'demo_vera', text: 'Вот что получилось в прошлый раз', photo: 'flower.jpg' },
      { from: 'demo_gleb', text: 'Если не будет дождя — я с вами' },
      { from: 'demo_anna', text: '**Не забудьте** запасные аккумуляторы, гуляем до вечера' },
    ],
  },
  {
    owner: 'demo_gleb',
    name: 'Космос по вечерам',
    slug: null,
    description: 'Смотрим запуски и спорим о чёрных дырах',
    avatar: 'astronaut.jpg',
    members: ['demo_boris', 'demo_vera'],
    messages: [
      { from: 'demo_gleb', text: 'Запуск в 21:40 по Москве, трансляция уже идёт' },
      { from: 'demo_boris', text: 'Смотрю! Погода на площадке отличная' },
      { from: 'demo_gleb', text: 'Так выглядела ракета утром', photo: 'rocket.jpg' },
      { from: 'demo_vera', text: 'Красота. А потом — на луну в телескоп?' },
    ],
  },
];

/** A channel: its owner posts, the others subscribe. */
export interface DemoChannel {
  owner: string;
  name: string;
  slug: string;
  description: string;
  subscribers: string[];
  posts: { text: string; photo?: string }[];
}

export const DEMO_CHANNELS: DemoChannel[] = [
  {
    owner: 'demo_vera',
    name: 'Звёздное небо',
    slug: 'starry_sky',
    description: 'Что видно над городом сегодня ночью',
    subscribers: ['demo_anna', 'demo_boris', 'demo_gleb'],
    posts: [
      {
        text: 'Полнолуние в среду: лучшее время смотреть на кратеры — за пару дней до него',
        photo: 'moon.jpg',
      },
      {
        text: 'Глубокое поле Хаббла: около 3 000 галактик в крошечном кусочке неба',
        photo: 'hubble_deep_field.jpg',
      },
      { text: 'На этой неделе Юпитер виден после полуночи на юго-востоке. **Бинокля хватит!**' },
    ],
  },
  {
    owner: 'demo_boris',
    name: 'Мотодневник',
    slug: 'motodiary',
    description: 'Ремонт, поездки и маршруты выходного дня',
    subscribers: ['demo_gleb', 'demo_anna'],
    posts: [
      { text: 'Сезон открыт! Первая поездка — 120 км по области', photo: 'motorcycle_left.jpg' },
      { text: 'Маршрут на субботу: вдоль реки до старой мельницы и обратно. Кто со мной?' },
    ],
  },
];

/** Stories of the last day: a photo of the set (cropped 9:16 by the server) with a caption. */
export const DEMO_STORIES: { author: string; photo: string; caption: string }[] = [
  { author: 'demo_vera', photo: 'chelsea.jpg', caption: 'Доброе утро от Челси' },
  { author: 'demo_anna', photo: 'coffee.jpg', caption: 'Кофе перед прогулкой' },
  { author: 'demo_anna', photo: 'flower.jpg', caption: 'Георгины в парке' },
  { author: 'demo_boris', photo: 'motorcycle_left.jpg', caption: 'Готов к выезду' },
  { author: 'demo_gleb', photo: 'rocket.jpg', caption: 'Сегодня старт!' },
];
