import { defineStrings } from '../../shared/i18n/catalog.ts';

/** The shell's own strings: the section switcher, the rail, the menu button and its common entries. */
export const shellStrings = defineStrings({
  sections: {
    media: 'Медиа',
    home: 'Главная',
    messenger: 'Мессенджер',
  },
  navButton: (section: string) => `Навигация, сейчас: ${section}`,
  navButtonHint:
    'Перетащите влево или вправо либо используйте стрелки, чтобы сменить раздел. Нажмите, чтобы открыть меню',
  navRail: 'Разделы',
  contextButtons: 'Действия страницы',
  menu: 'Меню',
  openMenu: 'Открыть меню',
  profile: 'Профиль',
  settings: 'Настройки',
  logout: 'Выйти',
});
