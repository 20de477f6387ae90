import { ru } from '../i18n/ru.ts';

const T = ru.titles;
const APP = ru.app.name;

/** First path segments that are pages of their own, not usernames (spec §2.1). */
const PAGES: Record<string, string> = {
  login: T.login,
  register: T.register,
  home: T.home,
  media: T.media,
  messenger: T.messenger,
  settings: T.settings,
  live: T.live,
  livestreams: T.live,
  call: T.call,
  calls: T.call,
};

/** The document title of a path: '<page> · Kadr', or 'Kadr' for a path that names no page. */
export function pageTitle(pathname: string): string {
  const [first = '', second] = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  let page: string | undefined;
  if (first === 'messenger' && second) page = T.chat(second);
  else if (first === 'media' && second) page = T.post;
  else if (first in PAGES) page = PAGES[first];
  else if (first !== '') page = T.profile(first.replace(/^@/, ''));
  return page ? `${page} · ${APP}` : APP;
}
