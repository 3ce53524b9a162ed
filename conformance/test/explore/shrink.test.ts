import { describe, expect, it } from 'vitest';
import { shrinkSteps, type Reproduce } from '../../src/explore/shrink.js';
import type { RanStep, Step } from '../../src/explore/types.js';

/**
 * Shrinking on a model of a server: a candidate fails when it holds the steps a bug needs, in order, and every
 * step it names was made by a step it keeps (as a replay stops at a step naming what was dropped).
 */
function step(n: number, over: Partial<Step> = {}): Step {
  return { kind: `k${n}`, actor: 'member', operation: 'op', method: 'POST', path: '/api/v1/x', params: {}, expect: 'success', ...over };
}

function ran(
  steps: Step[],
  status: (s: Step) => number = () => 200,
  events: (s: Step) => RanStep['events'] = () => ({ a: [] }),
): RanStep[] {
  return steps.map((s, i) => ({
    n: i + 1,
    step: s,
    exchange: { method: s.method, path: s.path, as: s.actor, params: {}, status: status(s), headers: {}, body: {}, ms: 1, curl: '' },
    events: events(s),
  }));
}

/** The model: fails at the last needed step when every needed step is there and every name is bound. */
function model(needed: readonly Step[]): { reproduce: Reproduce; replays: Step[][] } {
  const replays: Step[][] = [];
  const reproduce: Reproduce = (candidate) => {
    replays.push([...candidate]);
    const bound = new Set<string>();
    for (const [i, s] of candidate.entries()) {
      const names = [...s.path.matchAll(/\{([a-z]+\d+)\}/g)].map((m) => m[1]!);
      if (names.some((key) => !bound.has(key))) return Promise.resolve(null);
      if (s.binds) bound.add(s.binds);
      if (s === needed[needed.length - 1])
        return Promise.resolve(needed.every((x) => candidate.includes(x)) ? ran(candidate.slice(0, i + 1)) : null);
    }
    return Promise.resolve(null);
  };
  return { reproduce, replays };
}

describe('shrinkSteps', () => {
  it('keeps only the steps the failure needs, with the step that made what they name', async () => {
    const steps = Array.from({ length: 30 }, (_, i) => step(i + 1));
    // Step 4 makes m4; step 20 moves it; step 30 fails (it needs both, and names m4).
    steps[3] = step(4, { binds: 'm4' });
    steps[19] = step(20, { path: '/api/v1/messages/{m4}' });
    steps[29] = step(30, { path: '/api/v1/messages/{m4}/read' });
    const { reproduce } = model([steps[3]!, steps[19]!, steps[29]!]);
    const out = await shrinkSteps(reproduce, ran(steps), Infinity);
    expect(out.ran.map((r) => r.step.kind)).toEqual(['k4', 'k20', 'k30']);
  });

  it('finds a short failing tail in a few short replays before replaying anything long', async () => {
    const steps = Array.from({ length: 40 }, (_, i) => step(i + 1));
    const { reproduce, replays } = model([steps[37]!, steps[39]!]);
    const out = await shrinkSteps(reproduce, ran(steps), Infinity);
    expect(out.ran.map((r) => r.step.kind)).toEqual(['k38', 'k40']);
    // Tails of 2 and 3 steps, then single steps of the 3: never the whole sequence again.
    expect(Math.max(...replays.map((r) => r.length))).toBeLessThanOrEqual(3);
    expect(out.attempts).toBe(replays.length);
  });

  it('drops the steps that changed nothing in one replay', async () => {
    const steps = Array.from({ length: 12 }, (_, i) => step(i + 1));
    const { reproduce, replays } = model([steps[0]!, steps[11]!]);
    // Every other step was refused and no one heard of it.
    const inert = new Set(steps.filter((_, i) => i % 2 === 1 && i !== 11));
    const out = await shrinkSteps(
      reproduce,
      ran(
        steps,
        (s) => (inert.has(s) ? 400 : 200),
        (s): RanStep['events'] => (inert.has(s) ? {} : { a: [] }),
      ),
      Infinity,
    );
    expect(out.ran.map((r) => r.step.kind)).toEqual(['k1', 'k12']);
    expect(replays.some((r) => r.length === 12 - inert.size)).toBe(true);
  });

  it('replays no candidate twice and stops at its deadline', async () => {
    const steps = Array.from({ length: 10 }, (_, i) => step(i + 1));
    const { reproduce, replays } = model([steps[2]!, steps[6]!, steps[9]!]);
    await shrinkSteps(reproduce, ran(steps), Infinity);
    const signatures = replays.map((r) => r.map((s) => s.kind).join(','));
    expect(new Set(signatures).size).toBe(signatures.length);
    const late = model([steps[9]!]);
    const out = await shrinkSteps(late.reproduce, ran(steps), performance.now() - 1);
    expect(late.replays).toEqual([]);
    expect(out.ran).toHaveLength(10);
  });
});
