/**
 * The string catalogue: every user-visible string of the web app lives in a feature's `strings.ts` or, when
 * the whole app shares it (frame, titles, error screen, last seen, device errors), in `shared/i18n/ru.ts`;
 * both are declared with `defineStrings` so the catalogue's one type holds — only texts, plural forms,
 * nested groups of texts, or functions building a text.
 * `catalog.test.ts` fails on a Russian literal anywhere else in the app's code.
 */
/** A text, its plural forms (one, few, many), or a function building a text. */
export type Text = string | readonly string[] | ((...args: never[]) => string);
export interface Strings {
  readonly [key: string]: Text | Strings;
}

export function defineStrings<const S>(strings: S & Strings): S {
  return strings;
}
