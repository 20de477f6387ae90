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
