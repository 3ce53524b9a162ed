import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumPath } from '../../../tools/chromium.js';

/** A report page in Chromium, and what a test watches of it. */
export interface OfflinePage {
  page: Page;
  /** URLs the page asked for beyond its own file (none may be fetched: the context is offline). */
  outside: string[];
  /** Uncaught errors and console errors. */
  errors: string[];
  /** Dialogs the page opened (a target's markup that ran would open one); each dismissed. */
  dialogs: string[];
  close(): Promise<void>;
}

/**
 * Opens `html` from a file in a temporary directory, in an offline context, as a CI artefact is opened:
 * everything a report needs is inline (Chromium: tools/chromium.ts, driven by playwright-core).
 */
export async function openOffline(html: string, name: string, permissions: string[] = []): Promise<OfflinePage> {
  const dir = await mkdtemp(join(tmpdir(), 'tc-report-'));
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const file = join(dir, name);
    await writeFile(file, html);
    browser = await chromium.launch({ executablePath: await chromiumPath(), args: ['--no-sandbox'] });
    const context = await browser.newContext({ offline: true });
    if (permissions.length > 0) await context.grantPermissions(permissions);
    const page = await context.newPage();
    const watched: OfflinePage = { page, outside: [], errors: [], dialogs: [], close };
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) watched.outside.push(r.url());
    });
    page.on('pageerror', (e) => watched.errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') watched.errors.push(m.text());
    });
    page.on('dialog', (d) => {
      watched.dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(pathToFileURL(file).href);
    return watched;
  } catch (e) {
    await close();
    throw e;
  }
}
