/** Twemoji images of the call fingerprint's 64 emoji (shared/emoji/twemoji.ts): one file each, fetched when shown. */

import e62 from '@twemoji/svg/1f9a2.svg?url&no-inline';
import e42 from '@twemoji/svg/1f40a.svg?url&no-inline';
import e29 from '@twemoji/svg/1f40c.svg?url&no-inline';
import e32 from '@twemoji/svg/1f40d.svg?url&no-inline';
import e27 from '@twemoji/svg/1f41b.svg?url&no-inline';
import e26 from '@twemoji/svg/1f41d.svg?url&no-inline';
import e30 from '@twemoji/svg/1f41e.svg?url&no-inline';
import e38 from '@twemoji/svg/1f41f.svg?url&no-inline';
import e48 from '@twemoji/svg/1f42a.svg?url&no-inline';
import e39 from '@twemoji/svg/1f42c.svg?url&no-inline';
import e2 from '@twemoji/svg/1f42d.svg?url&no-inline';
import e11 from '@twemoji/svg/1f42e.svg?url&no-inline';
import e9 from '@twemoji/svg/1f42f.svg?url&no-inline';
import e22 from '@twemoji/svg/1f43a.svg?url&no-inline';
import e6 from '@twemoji/svg/1f43b.svg?url&no-inline';
import e7 from '@twemoji/svg/1f43c.svg?url&no-inline';
import e5 from '@twemoji/svg/1f98a.svg?url&no-inline';
import e28 from '@twemoji/svg/1f98b.svg?url&no-inline';
import e54 from '@twemoji/svg/1f98c.svg?url&no-inline';
import e47 from '@twemoji/svg/1f98f.svg?url&no-inline';
import e60 from '@twemoji/svg/1f99a.svg?url&no-inline';
import e61 from '@twemoji/svg/1f99c.svg?url&no-inline';
import e63 from '@twemoji/svg/1f344.svg?url&no-inline';
import e50 from '@twemoji/svg/1f403.svg?url&no-inline';
import e43 from '@twemoji/svg/1f405.svg?url&no-inline';
import e57 from '@twemoji/svg/1f408.svg?url&no-inline';
import e53 from '@twemoji/svg/1f410.svg?url&no-inline';
import e51 from '@twemoji/svg/1f411.svg?url&no-inline';
import e58 from '@twemoji/svg/1f413.svg?url&no-inline';
import e15 from '@twemoji/svg/1f414.svg?url&no-inline';
import e55 from '@twemoji/svg/1f415.svg?url&no-inline';
import e23 from '@twemoji/svg/1f417.svg?url&no-inline';
import e46 from '@twemoji/svg/1f418.svg?url&no-inline';
import e33 from '@twemoji/svg/1f419.svg?url&no-inline';
import e37 from '@twemoji/svg/1f420.svg?url&no-inline';
import e36 from '@twemoji/svg/1f421.svg?url&no-inline';
import e31 from '@twemoji/svg/1f422.svg?url&no-inline';
import e18 from '@twemoji/svg/1f424.svg?url&no-inline';
import e17 from '@twemoji/svg/1f426.svg?url&no-inline';
import e16 from '@twemoji/svg/1f427.svg?url&no-inline';
import e8 from '@twemoji/svg/1f428.svg?url&no-inline';
import e56 from '@twemoji/svg/1f429.svg?url&no-inline';
import e4 from '@twemoji/svg/1f430.svg?url&no-inline';
import e1 from '@twemoji/svg/1f431.svg?url&no-inline';
import e40 from '@twemoji/svg/1f433.svg?url&no-inline';
import e24 from '@twemoji/svg/1f434.svg?url&no-inline';
import e14 from '@twemoji/svg/1f435.svg?url&no-inline';
import e0 from '@twemoji/svg/1f436.svg?url&no-inline';
import e12 from '@twemoji/svg/1f437.svg?url&no-inline';
import e13 from '@twemoji/svg/1f438.svg?url&no-inline';
import e3 from '@twemoji/svg/1f439.svg?url&no-inline';
import e35 from '@twemoji/svg/1f980.svg?url&no-inline';
import e10 from '@twemoji/svg/1f981.svg?url&no-inline';
import e59 from '@twemoji/svg/1f983.svg?url&no-inline';
import e25 from '@twemoji/svg/1f984.svg?url&no-inline';
import e20 from '@twemoji/svg/1f985.svg?url&no-inline';
import e19 from '@twemoji/svg/1f986.svg?url&no-inline';
import e41 from '@twemoji/svg/1f988.svg?url&no-inline';
import e21 from '@twemoji/svg/1f989.svg?url&no-inline';
import e34 from '@twemoji/svg/1f991.svg?url&no-inline';
import e45 from '@twemoji/svg/1f992.svg?url&no-inline';
import e44 from '@twemoji/svg/1f993.svg?url&no-inline';
import e49 from '@twemoji/svg/1f998.svg?url&no-inline';
import e52 from '@twemoji/svg/1f999.svg?url&no-inline';

/** The image of each fingerprint emoji (e2ee.ts `EMOJI`). */
export const FINGERPRINT_EMOJI: Readonly<Record<string, string>> = {
  '🐶': e0,
  '🐱': e1,
  '🐭': e2,
  '🐹': e3,
  '🐰': e4,
  '🦊': e5,
  '🐻': e6,
  '🐼': e7,
  '🐨': e8,
  '🐯': e9,
  '🦁': e10,
  '🐮': e11,
  '🐷': e12,
  '🐸': e13,
  '🐵': e14,
  '🐔': e15,
  '🐧': e16,
  '🐦': e17,
  '🐤': e18,
  '🦆': e19,
  '🦅': e20,
  '🦉': e21,
  '🐺': e22,
  '🐗': e23,
  '🐴': e24,
  '🦄': e25,
  '🐝': e26,
  '🐛': e27,
  '🦋': e28,
  '🐌': e29,
  '🐞': e30,
  '🐢': e31,
  '🐍': e32,
  '🐙': e33,
  '🦑': e34,
  '🦀': e35,
  '🐡': e36,
  '🐠': e37,
  '🐟': e38,
  '🐬': e39,
  '🐳': e40,
  '🦈': e41,
  '🐊': e42,
  '🐅': e43,
  '🦓': e44,
  '🦒': e45,
  '🐘': e46,
  '🦏': e47,
  '🐪': e48,
  '🦘': e49,
  '🐃': e50,
  '🐑': e51,
  '🦙': e52,
  '🐐': e53,
  '🦌': e54,
  '🐕': e55,
  '🐩': e56,
  '🐈': e57,
  '🐓': e58,
  '🦃': e59,
  '🦚': e60,
  '🦜': e61,
  '🦢': e62,
  '🍄': e63,
};
