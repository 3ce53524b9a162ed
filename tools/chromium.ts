/**
 * The Chromium that the browser tests and the screenshot tools drive through playwright-core: `CHROMIUM_PATH`
 * when set (a system browser, say), else the build shipped inside the `@sparticuz/chromium` dev dependency, so
 * `npm ci` brings it like any other package: no system package, no download. Its first use unpacks it (~200 MB)
 * into the temporary directory, where later runs find it.
 */
export async function chromiumPath(): Promise<string> {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) return chosen;
  const { default: chromium } = await import('@sparticuz/chromium');
  return chromium.executablePath();
}

/**
 * Vitest global setup: unpacks the browser once, before the test files run in parallel (two files unpacking it
 * at once would each see the other's half-written file), and hands its path to every worker by `CHROMIUM_PATH`.
 */
export default async function setup(): Promise<void> {
  process.env.CHROMIUM_PATH = await chromiumPath();
}
