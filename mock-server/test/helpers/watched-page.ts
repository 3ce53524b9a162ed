import type { Browser, Page } from 'playwright-core';

/** What a browser test watches of its page, for assertions that the page stayed within the mock and ran clean. */
export interface WatchedPage {
  page: Page;
  /** URLs the page asked of another origin: aborted and recorded, never fetched. */
  outside: string[];
  /** Uncaught errors and console errors. */
  errors: string[];
  /** Answers of 400 or more the page got (its files, feed, control calls): `status url`. */
  refused: string[];
}

/**
 * A page in a fresh context of `browser` that may load only from `origin` (and what `allowed` lets through, such
 * as blob: URLs): every other request is aborted and recorded.
 */
export async function watchedPage(browser: Browser, origin: string, allowed: (url: string) => boolean = () => false): Promise<WatchedPage> {
  const watched: Omit<WatchedPage, 'page'> = { outside: [], errors: [], refused: [] };
  const context = await browser.newContext();
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin || allowed(url)) return route.continue();
    watched.outside.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => watched.errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') watched.errors.push(m.text());
  });
  page.on('response', (r) => {
    if (r.status() >= 400) watched.refused.push(`${r.status()} ${r.url()}`);
  });
  return { page, ...watched };
}
