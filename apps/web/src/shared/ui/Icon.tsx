import {
  Bell,
  ChevronLeft,
  Clapperboard,
  House,
  type LucideIcon,
  Menu,
  MessageSquare,
  Moon,
  Plus,
  Search,
  SlidersHorizontal,
} from 'lucide-react';

/** The app's named icons, all from lucide-react (the one icon set). */
const icons = {
  menu: Menu,
  search: Search,
  plus: Plus,
  bell: Bell,
  moon: Moon,
  sliders: SlidersHorizontal,
  home: House,
  media: Clapperboard,
  messenger: MessageSquare,
  back: ChevronLeft,
} as const satisfies Record<string, LucideIcon>;

export type IconName = keyof typeof icons;

export function Icon({ name, size = 24 }: { name: IconName; size?: number }) {
  const Glyph = icons[name];
  return <Glyph size={size} strokeWidth={2} aria-hidden="true" focusable="false" />;
}
