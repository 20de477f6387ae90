import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { pageTitle } from '../shared/lib/page-title.ts';

/** Keeps `document.title` naming the page on screen, so tabs, history and screen readers tell pages apart. */
export function PageTitle() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = pageTitle(pathname);
  }, [pathname]);
  return null;
}
