import { createElement, use, type ComponentProps, type ComponentType, type ReactElement } from 'react';
import { matchRoutes, type RouteObject } from 'react-router-dom';

/**
 * A screen loaded in its own chunk on first use (route-level code splitting): the entry bundle keeps
 * only the shell (router, session, header, error pages), so the login page and the dashboard download only what
 * they draw. The layouts show the accessible <Loading /> status while a chunk arrives (see PageSuspense).
 *
 * Not React.lazy: a lazy component suspends on its first render even when its chunk has already arrived, and React
 * then holds the fallback for at least 300 ms (its reveal throttle). This one renders at once when `preload()`
 * finished earlier (preloadScreens below), and suspends through `use()` only while the chunk is really on its way.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any props, as React.lazy itself accepts
export function lazyPage<Name extends string, Page extends ComponentType<any>>(
  load: () => Promise<Record<Name, Page>>, name: Name,
): ComponentType<ComponentProps<Page>> & { preload: () => Promise<Page> } {
  let loaded: Page | undefined;
  let loading: Promise<Page> | undefined;
  const preload = () => (loading ??= load().then((module) => (loaded = module[name])));
  const Screen = (props: ComponentProps<Page>) => createElement(loaded ?? use(preload()), props);
  Screen.displayName = `Lazy(${name})`;
  return Object.assign(Screen, { preload });
}

/**
 * Starts downloading the screens an address shows at once, in parallel with the session check that the signed-in
 * layout waits for (otherwise the chunk would only be asked for after the check: one more round trip on every load).
 */
export function preloadScreens(routes: RouteObject[], pathname: string): void {
  for (const match of matchRoutes(routes, pathname) ?? []) {
    const screen = (match.route.element as ReactElement | null | undefined)?.type as { preload?: () => Promise<unknown> } | undefined;
    screen?.preload?.().catch(() => { /* use() throws the same failure to the error page when the screen renders */ });
  }
}
