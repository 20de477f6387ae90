/** The three views of the shared shell, ordered as the navigation button's snap points. */
export const SECTIONS = ['media', 'home', 'messenger'] as const;
export type Section = (typeof SECTIONS)[number];

export const sectionPath = (section: Section): string => `/${section}`;

/** The first path segment picks the view (spec §2.1); anything else falls back to home. */
export function sectionFromPath(pathname: string): Section {
  const first = pathname.split('/').filter(Boolean)[0];
  return SECTIONS.find((section) => section === first) ?? 'home';
}

export function neighbourSection(section: Section, direction: -1 | 1): Section {
  const index = SECTIONS.indexOf(section) + direction;
  return SECTIONS[Math.min(Math.max(index, 0), SECTIONS.length - 1)] ?? section;
}

/** From this width the side rail replaces the bottom navigation (spec §2.2, §9: desktop navigation 1024 px). */
export const DESKTOP_NAV_QUERY = '(min-width: 1024px)';
