import { useEffect, useState } from 'preact/hooks';

/** The inspector's pages, as paths under /ui. Nothing secret ever goes into one. */
export const BASE = '/ui';

export type Route =
  | { page: 'sign-in' }
  | { page: 'memories' }
  | { page: 'memory'; id: string }
  | { page: 'why' }
  | { page: 'lessons' }
  | { page: 'audit' }
  | { page: 'keys' }
  | { page: 'webhooks' }
  | { page: 'config' }
  | { page: 'not-found'; path: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseRoute(pathname: string): Route {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const parts = rest.split('/').filter((part) => part !== '');
  if (parts.length === 0) return { page: 'memories' };
  if (parts.length === 2 && parts[0] === 'memories' && UUID.test(parts[1])) return { page: 'memory', id: parts[1].toLowerCase() };
  if (parts.length === 1) {
    switch (parts[0]) {
      case 'sign-in':
      case 'memories':
      case 'why':
      case 'lessons':
      case 'audit':
      case 'keys':
      case 'webhooks':
      case 'config':
        return { page: parts[0] };
    }
  }
  return { page: 'not-found', path: pathname };
}

export const hrefOf = (path: string): string => `${BASE}${path}`;

const listeners = new Set<() => void>();

/** In-app navigations so far (0 on the first page of a load): page titles take focus only after one. */
export let navigations = 0;

/** Go to a page of the inspector without reloading (history.pushState). */
export function navigate(path: string, options: { replace?: boolean } = {}): void {
  const url = hrefOf(path);
  if (options.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  navigations++;
  for (const listener of listeners) listener();
}

/** The current route; re-renders on navigate() and on the browser's back and forward. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.pathname));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.pathname));
    const onPop = () => {
      navigations++;
      update();
    };
    listeners.add(update);
    addEventListener('popstate', onPop);
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', onPop);
    };
  }, []);
  return route;
}

/**
 * A click on an in-app link: handled here (no reload) unless the user asked for a new tab or
 * window, in which case the browser opens the real URL (the server answers any page path).
 */
export function onLinkClick(event: MouseEvent, path: string): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(path);
}
