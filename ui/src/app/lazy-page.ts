import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * A screen loaded in its own chunk on first use (route-level code splitting, issue #11): the entry bundle keeps
 * only the shell (router, session, header, error pages), so the login page and the dashboard download only what
 * they draw. The layouts show the accessible <Loading /> status while a chunk arrives (see PageSuspense).
 * React.lazy wants a default export; our screens are named exports, so the factory picks one by name.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any props, as React.lazy itself accepts
export function lazyPage<Name extends string, Page extends ComponentType<any>>(
  load: () => Promise<Record<Name, Page>>, name: Name,
): LazyExoticComponent<Page> {
  return lazy(async () => ({ default: (await load())[name] }));
}
