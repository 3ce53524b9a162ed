import type { Output } from '../../report/console.js';
import type { ExploreResult } from '../types.js';
import { figuresLine, findingText, oracleCounts, plural } from './text.js';

/** Progress lines at most this often: a sequence ends every few seconds, a CI log should not fill up. */
const PROGRESS_EVERY_MS = 5_000;

/**
 * `teamchat conform --explore` on the console: the seed first (so an interrupted run can still be repeated),
 * a progress line as sequences end, then the figures, the oracle counts per rule and any finding in full.
 */
export class ExploreConsole {
  #started = 0;
  #lastLine = -Infinity;

  constructor(
    private readonly out: Output,
    private readonly now: () => number = () => performance.now(),
  ) {}

  start(info: { target: string; seed: number; users: number; tiers: readonly string[]; budget: string }): void {
    this.#started = this.now();
    this.out.write(
      `explore: ${info.target}, ${info.users} actors, tier ${info.tiers.join('+')}, ${info.budget}\n` +
        `explore: seed ${info.seed} (repeat this run with --seed ${info.seed})\n`,
    );
  }

  /** After each sequence; prints at most one line every PROGRESS_EVERY_MS. */
  progress(done: { sequences: number; steps: number }): void {
    const now = this.now();
    if (now - this.#lastLine < PROGRESS_EVERY_MS) return;
    this.#lastLine = now;
    const seconds = Math.max((now - this.#started) / 1000, 0.001);
    this.out.write(
      `explore: ${plural(done.sequences, 'sequence')}, ${plural(done.steps, 'step')}, ${(done.steps / seconds).toFixed(1)} steps/s (${seconds.toFixed(0)} s)\n`,
    );
  }

  end(result: ExploreResult): void {
    this.out.write(`${renderExploreSummary(result)}\n`);
  }
}

/** The end of a run as text: figures, oracle counts, findings (or "no finding"), why it stopped. */
export function renderExploreSummary(result: ExploreResult): string {
  const lines = [
    `explore: ${figuresLine(result)}`,
    `oracles held: ${oracleCounts(result)}`,
    ...(result.stopped ? [`stopped: ${result.stopped.message}`] : []),
  ];
  if (result.findings.length === 0) lines.push(result.stopped ? 'no finding before it stopped' : 'no finding');
  for (const f of result.findings) lines.push(...findingText(f));
  return lines.join('\n');
}
