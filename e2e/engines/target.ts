/**
 * What a flow points at, in the words a user (or a screen reader) would use: a role and its accessible name,
 * a field's label, visible text, or — where the UI gives nothing better — a test id or a CSS selector.
 * Every engine resolves it with the same in-page function (`findInPage`), so the three engines agree on
 * what "the button «Отправить»" means.
 */
export type Pattern = string | { source: string; flags: string };

export type Target =
  | { role: string; name?: Pattern; within?: Target }
  | { label: Pattern; within?: Target }
  | { text: Pattern; within?: Target }
  | { testId: string; within?: Target }
  | { css: string; within?: Target };

/** A RegExp crosses into the page as its source and flags. */
export const re = (pattern: RegExp): Pattern => ({ source: pattern.source, flags: pattern.flags });

export const role = (name: string, accessibleName?: string | RegExp, within?: Target): Target => ({
  role: name,
  ...(accessibleName === undefined
    ? {}
    : { name: typeof accessibleName === 'string' ? accessibleName : re(accessibleName) }),
  ...(within ? { within } : {}),
});
export const label = (text: string | RegExp, within?: Target): Target => ({
  label: typeof text === 'string' ? text : re(text),
  ...(within ? { within } : {}),
});
export const text = (value: string | RegExp, within?: Target): Target => ({
  text: typeof value === 'string' ? value : re(value),
  ...(within ? { within } : {}),
});
export const testId = (id: string, within?: Target): Target => ({
  testId: id,
  ...(within ? { within } : {}),
});
export const css = (selector: string, within?: Target): Target => ({
  css: selector,
  ...(within ? { within } : {}),
});

export function describe(target: Target): string {
  const inner = (() => {
    if ('role' in target) return `${target.role} «${patternText(target.name)}»`;
    if ('label' in target) return `field «${patternText(target.label)}»`;
    if ('text' in target) return `text «${patternText(target.text)}»`;
    if ('testId' in target) return `[data-testid=${target.testId}]`;
    return target.css;
  })();
  return target.within ? `${inner} in ${describe(target.within)}` : inner;
}

function patternText(pattern: Pattern | undefined): string {
  if (pattern === undefined) return '*';
  return typeof pattern === 'string' ? pattern : `/${pattern.source}/${pattern.flags}`;
}

/**
 * Runs inside the page (serialised with `toString()`, so it must stay self-contained and plain JS once its
 * types are stripped): every visible element that matches, in document order. Implicit roles and accessible
 * names cover what Kadr's markup uses — aria-label, aria-labelledby, <label>, text content, title,
 * placeholder — not the whole of ARIA.
 */
export function findInPage(target: Target): Element[] {
  const matches = (pattern: Pattern | undefined, value: string): boolean => {
    if (pattern === undefined) return true;
    const clean = value.replace(/\s+/g, ' ').trim();
    if (typeof pattern === 'string') return clean === pattern;
    return new RegExp(pattern.source, pattern.flags).test(clean);
  };
  const visible = (el: Element): boolean => {
    if (!(el as HTMLElement).isConnected) return false;
    // A file input is usually drawn as its label, not itself: it counts when it is in the live document.
    if ((el as HTMLInputElement).type === 'file') return !el.closest('[hidden],[inert]');
    if (el.closest('[hidden],[inert],[aria-hidden="true"]')) return false;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  const implicitRole = (el: Element): string => {
    const explicit = el.getAttribute('role');
    if (explicit) return explicit.split(' ')[0] as string;
    const tag = el.tagName.toLowerCase();
    if (tag === 'button') return 'button';
    if (tag === 'a' && el.hasAttribute('href')) return 'link';
    if (/^h[1-6]$/.test(tag)) return 'heading';
    if (tag === 'textarea') return 'textbox';
    if (tag === 'dialog') return 'dialog';
    if (tag === 'nav') return 'navigation';
    if (tag === 'fieldset') return 'group';
    if (tag === 'article') return 'article';
    if (tag === 'section' && (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby')))
      return 'region';
    if (tag === 'input') {
      const type = (el as HTMLInputElement).type;
      if (type === 'checkbox') return 'checkbox';
      if (type === 'radio') return 'radio';
      if (type === 'button' || type === 'submit') return 'button';
      if (type === 'search') return 'searchbox';
      if (type === 'file' || type === 'hidden') return '';
      return 'textbox';
    }
    return '';
  };
  const labelText = (el: Element): string => {
    const labelledBy = el.getAttribute('aria-labelledby');
    if (labelledBy)
      return labelledBy
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ');
    const aria = el.getAttribute('aria-label');
    if (aria) return aria;
    if (el.tagName.toLowerCase() === 'fieldset') return el.querySelector('legend')?.textContent ?? '';
    const labels = (el as HTMLInputElement).labels;
    if (labels && labels.length > 0)
      return Array.from(labels)
        .map((l) => l.textContent ?? '')
        .join(' ');
    return '';
  };
  const accessibleName = (el: Element): string =>
    labelText(el) ||
    (['input', 'textarea', 'select'].includes(el.tagName.toLowerCase()) ? '' : (el.textContent ?? '')) ||
    el.getAttribute('title') ||
    el.getAttribute('placeholder') ||
    '';
  const roots: Element[] = target.within ? findInPage(target.within) : [document.documentElement];
  const found: Element[] = [];
  for (const root of roots) {
    const all = [root, ...Array.from(root.querySelectorAll('*'))];
    for (const el of all) {
      let ok = false;
      if ('role' in target) ok = implicitRole(el) === target.role && matches(target.name, accessibleName(el));
      else if ('label' in target)
        ok =
          ['input', 'textarea', 'select'].includes(el.tagName.toLowerCase()) ||
          el.getAttribute('contenteditable') === 'true'
            ? matches(target.label, labelText(el) || (el.getAttribute('placeholder') ?? ''))
            : false;
      else if ('text' in target) {
        // The innermost element whose own text matches (not every ancestor that contains it).
        ok =
          matches(target.text, el.textContent ?? '') &&
          !Array.from(el.children).some((child) => matches(target.text, child.textContent ?? ''));
      } else if ('testId' in target) ok = el.getAttribute('data-testid') === target.testId;
      else ok = el.matches(target.css);
      if (ok && visible(el) && !found.includes(el)) found.push(el);
    }
  }
  return found;
}
