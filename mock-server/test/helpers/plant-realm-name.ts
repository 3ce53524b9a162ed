import { readFile, writeFile } from 'node:fs/promises';

/**
 * Renames the realm inside a template entry of the product cache (config/cache.ts: one JSON row a line), so that
 * a realm made from it shows which entry it came from.
 */
export async function plantRealmName(entry: string, name: string): Promise<void> {
  const lines = (await readFile(entry, 'utf8')).split('\n').map((line) => {
    if (!line.startsWith('["realm","realm",')) return line;
    const row = JSON.parse(line) as [string, string, { name: string }];
    row[2].name = name;
    return JSON.stringify(row);
  });
  await writeFile(entry, lines.join('\n'));
}
