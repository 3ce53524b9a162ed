import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DURATION, draftFigures, type DraftFigures, WRITES } from './figures.js';
import { pinLoadGenerator } from './spawn.js';

/**
 * The durable-draft rows of `npm run bench` alone (the same `draftFigures` calls, nothing else), for work on the
 * write path: `npx tsx bench/drafts.ts [--no-build] [--rounds N]`. Prints each row's figures and the machine's
 * load average beside them, since the machine may be shared.
 */
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const argv = process.argv.slice(2);
const rounds = Number(argv[argv.indexOf('--rounds') + 1] ?? 1) || 1;

const line = (realm: string, d: DraftFigures) =>
  `${realm}: mock ${Math.round(d.mock.rps)} req/s, p50 ${d.mock.p50} ms, p99 ${d.mock.p99} ms` +
  `${d.mock.failures ? `, ${d.mock.failures} failed` : ''}; whole-file rewrite ${Math.round(d.baseline.rps)} req/s, ` +
  `p99 ${d.baseline.p99} ms; ratio ${(d.mock.rps / d.baseline.rps).toFixed(1)}× (${(d.stateBytes / 1024).toFixed(0)} KiB)` +
  (d.floor ? `; floor ${Math.round(d.floor.rps)} req/s, p99 ${d.floor.p99} ms` : '');

pinLoadGenerator();
if (!argv.includes('--no-build')) {
  const built = spawnSync('npm', ['run', 'build'], { cwd: here('..'), stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) throw new Error('npm run build failed');
}
const dir = await mkdtemp(join(tmpdir(), 'teamchat-bench-'));
try {
  for (let round = 0; round < rounds; round++) {
    const load = () => `load ${loadavg()[0]!.toFixed(2)}`;
    console.log(`${line('demo realm', await draftFigures(dir, null, { amount: WRITES }))}; ${load()}`);
    console.log(`${line('10,000 messages', await draftFigures(dir, 10_000, { duration: DURATION }))}; ${load()}`);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
