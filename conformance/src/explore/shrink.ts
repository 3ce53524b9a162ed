import type { RanStep, Step } from './types.js';

/**
 * Replays a candidate sequence on a fresh world: the steps as they ran up to the violation when it breaks the
 * same rule again, else null.
 */
export type Reproduce = (steps: readonly Step[]) => Promise<RanStep[] | null>;

/**
 * Shortens a failing sequence by dropping steps (delta debugging on the concrete steps: chunks of half the
 * sequence, then quarters, down to single steps), keeping every candidate that still breaks the same rule.
 * The steps name what they use by the number of the step that made it (`m7`), so dropping a step renames
 * nothing; a candidate that drops the step making something a later step uses simply does not reproduce.
 * Ends one-minimal (no single step can go) or at `until` (performance.now()), with the shortest found.
 */
export async function shrinkSteps(reproduce: Reproduce, found: RanStep[], until: number): Promise<{ ran: RanStep[]; attempts: number }> {
  let ran = found;
  let attempts = 0;
  let chunk = Math.max(1, Math.floor(ran.length / 2));
  while (performance.now() < until) {
    let dropped = false;
    // From the end backwards: the failing step is last, the steps just before it matter most.
    for (let start = ran.length - 1 - chunk; start >= 0 && performance.now() < until; start -= chunk) {
      const steps = ran.map((r) => r.step);
      const candidate = [...steps.slice(0, start), ...steps.slice(start + chunk)];
      attempts += 1;
      const again = await reproduce(candidate);
      if (again && again.length < ran.length) {
        ran = again;
        dropped = true;
        start = Math.min(start, ran.length - 1);
      }
    }
    if (dropped) chunk = Math.max(1, Math.min(chunk, Math.floor(ran.length / 2)));
    else if (chunk === 1) break;
    else chunk = Math.max(1, Math.floor(chunk / 2));
  }
  return { ran, attempts };
}
