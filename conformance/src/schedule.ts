import type { Scenario } from './dsl.js';

/**
 * The order and overlap of scenarios in a run. Scenarios run side by side on the workers, except those
 * that touch the world's shared fixtures: each of those runs alone, so no other scenario ever sees a
 * fixture half-changed (conformance/README.md, "Scenarios that own their state").
 */

/**
 * Runs alone: marked `serial` (changes a shared fixture and puts it back), or — against a target without
 * the control API, where there is no realm of its own to run in — `isolated` or `destructive`, both of
 * which change what every other scenario shares. Waiting for the clock (`requires.control` under --slow)
 * changes nothing shared, so those waits still overlap.
 */
export function runsAlone(s: Scenario<unknown, unknown>, control: boolean): boolean {
  if (s.serial) return true;
  return !control && Boolean(s.isolated || s.destructive);
}

/**
 * A readers-writer gate: any number of shared holders, or one exclusive holder. A waiting exclusive
 * scenario goes first (no new shared ones start), so it is not starved by a stream of shared ones.
 */
export class Gate {
  #shared = 0;
  #exclusive = false;
  #exclusiveWaiting = 0;
  #wake: (() => void)[] = [];

  async run<T>(exclusive: boolean, fn: () => Promise<T>): Promise<T> {
    if (exclusive) {
      this.#exclusiveWaiting += 1;
      while (this.#exclusive || this.#shared > 0) await this.#wait();
      this.#exclusiveWaiting -= 1;
      this.#exclusive = true;
    } else {
      while (this.#exclusive || this.#exclusiveWaiting > 0) await this.#wait();
      this.#shared += 1;
    }
    try {
      return await fn();
    } finally {
      if (exclusive) this.#exclusive = false;
      else this.#shared -= 1;
      const waiting = this.#wake;
      this.#wake = [];
      for (const wake of waiting) wake();
    }
  }

  #wait(): Promise<void> {
    return new Promise((resolve) => this.#wake.push(resolve));
  }
}

/** A seed for --shuffle when none is given: printed and recorded so the order can be repeated. */
export const randomSeed = (): number => Math.floor(Math.random() * 2 ** 31);

/** The scenarios in the order a seed gives (faker's seeded Mersenne Twister: the same seed, the same order). */
export async function shuffled<T>(items: readonly T[], seed: number): Promise<T[]> {
  const { SimpleFaker } = await import('./simple-faker.js');
  const random = new SimpleFaker();
  random.seed(seed);
  return random.helpers.shuffle([...items]);
}
