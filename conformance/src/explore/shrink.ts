import { keysNamedBy } from './knowledge.js';
import type { RanStep, Step } from './types.js';

/**
 * Replays a candidate sequence on a fresh world: the steps as they ran up to the violation when it breaks the
 * same rule again, else null.
 */
export type Reproduce = (steps: readonly Step[]) => Promise<RanStep[] | null>;

/**
 * Shortens a failing sequence by dropping steps, keeping every candidate that still breaks the same rule.
 * A replay costs about as much as the steps it runs, so the cheap candidates come first:
 * 1. the shortest tail that still fails (the last step with the 1, 2, 4, … steps before it): a failure
 *    usually needs a few recent steps, and a short tail replays in a moment;
 * 2. without the steps that cannot have changed anything (an error answer, no event for anyone, nothing made);
 * 3. delta debugging: chunks of half the sequence, then quarters, down to single steps, from the end backwards.
 * Each candidate keeps the steps that made what its steps name (`m7` is made by step 7) and drops those naming
 * what it dropped, so that no replay is spent on a step that cannot apply; no candidate is replayed twice.
 * Ends one-minimal (no single step can go) or at `until` (performance.now()), with the shortest found.
 */
export async function shrinkSteps(reproduce: Reproduce, found: RanStep[], until: number): Promise<{ ran: RanStep[]; attempts: number }> {
  let ran = found;
  let attempts = 0;
  const ids = new Map<Step, number>(found.map((r, i) => [r.step, i]));
  const tried = new Set<string>();
  /** Whether the candidate still fails the same way (then it is the sequence from now on). */
  const attempt = async (candidate: Step[] | null): Promise<boolean> => {
    if (!candidate || candidate.length >= ran.length || performance.now() >= until) return false;
    const signature = candidate.map((s) => ids.get(s)).join(',');
    if (tried.has(signature)) return false;
    tried.add(signature);
    attempts += 1;
    const again = await reproduce(candidate);
    if (!again || again.length >= ran.length) return false;
    ran = again;
    return true;
  };
  const steps = () => ran.map((r) => r.step);

  // 1. The shortest failing tail.
  for (let tail = 1; tail < ran.length - 1; tail *= 2) {
    const all = steps();
    if (await attempt(withMakers(all, all.slice(-1 - tail)))) break;
  }
  // 2. Without the steps that changed nothing.
  await attempt(without(steps(), new Set(ran.filter(inert).map((r) => r.step))));
  // 3. Chunks, from the end backwards (the failing step is last; the steps just before it matter most).
  let chunk = Math.max(1, Math.floor(ran.length / 2));
  while (performance.now() < until) {
    let dropped = false;
    for (let start = ran.length - 1 - chunk; start > -chunk && performance.now() < until; start -= chunk) {
      const all = steps();
      if (await attempt(without(all, new Set(all.slice(Math.max(0, start), start + chunk))))) {
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

/** A step whose answer was an error, that made nothing and that no actor heard of: it changed nothing a correct server keeps. */
function inert(r: RanStep): boolean {
  return r.exchange.status >= 400 && Object.keys(r.events).length === 0;
}

/** `kept` (a subset of `all`, the last step among it) with the steps that made what they name, in order. */
function withMakers(all: readonly Step[], kept: readonly Step[]): Step[] {
  const makers = new Map(all.filter((s) => s.binds).map((s) => [s.binds!, s]));
  const keep = new Set(kept);
  const need = [...kept];
  while (need.length > 0)
    for (const key of keysNamedBy(need.pop()!)) {
      const maker = makers.get(key);
      if (maker && !keep.has(maker)) {
        keep.add(maker);
        need.push(maker);
      }
    }
  return all.filter((s) => keep.has(s));
}

/** `all` without `drop` and the steps naming what a dropped step made; null when that takes the failing (last) step. */
function without(all: readonly Step[], drop: ReadonlySet<Step>): Step[] | null {
  if (drop.size === 0) return null;
  const gone = new Set<string>();
  const out: Step[] = [];
  for (const s of all) {
    if (drop.has(s) || keysNamedBy(s).some((key) => gone.has(key))) {
      if (s.binds) gone.add(s.binds);
      if (s === all[all.length - 1]) return null;
    } else out.push(s);
  }
  return out;
}
