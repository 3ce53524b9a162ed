import { describe, expect, it } from 'vitest';
import { scenario } from '../src/dsl.js';
import { Gate, runsAlone, shuffled } from '../src/schedule.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('Gate', () => {
  it('never runs an exclusive task beside another one, while shared tasks overlap', async () => {
    const gate = new Gate();
    let running = 0;
    let maxShared = 0;
    const log: string[] = [];
    const task = (name: string, exclusive: boolean) =>
      gate.run(exclusive, async () => {
        running += 1;
        if (exclusive && running !== 1) log.push(`${name} overlapped ${running - 1} others`);
        if (!exclusive) maxShared = Math.max(maxShared, running);
        await tick();
        await tick();
        running -= 1;
      });
    await Promise.all([
      task('a', false),
      task('b', false),
      task('X', true),
      task('c', false),
      task('Y', true),
      task('d', false),
      task('e', false),
    ]);
    expect(log).toEqual([]);
    expect(maxShared).toBeGreaterThan(1);
  });

  it('lets a waiting exclusive task go before shared tasks that arrive after it', async () => {
    const gate = new Gate();
    const order: string[] = [];
    const first = gate.run(false, async () => {
      await tick();
      order.push('first');
    });
    const exclusive = gate.run(true, async () => void order.push('exclusive'));
    const late = gate.run(false, async () => void order.push('late'));
    await Promise.all([first, exclusive, late]);
    expect(order).toEqual(['first', 'exclusive', 'late']);
  });

  it('frees its place when a task throws', async () => {
    const gate = new Gate();
    await expect(gate.run(true, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(gate.run(false, async () => 'after')).resolves.toBe('after');
  });
});

describe('shuffled', () => {
  const items = Array.from({ length: 40 }, (_, i) => i);
  it('gives the same order for the same seed and another for another seed, keeping every item', async () => {
    const a = await shuffled(items, 1234);
    expect(await shuffled(items, 1234)).toEqual(a);
    expect(await shuffled(items, 1235)).not.toEqual(a);
    expect([...a].sort((x, y) => x - y)).toEqual(items);
    expect(a).not.toEqual(items);
  });
});

describe('runsAlone', () => {
  const base = { id: 'x/y', title: 't', rules: ['R1-1'], when: () => undefined, then: () => undefined };
  it('serialises serial scenarios everywhere, and isolated or destructive ones only without the control API', () => {
    expect(runsAlone(scenario({ ...base, serial: true }), true)).toBe(true);
    for (const s of [scenario({ ...base, isolated: true }), scenario({ ...base, destructive: true })]) {
      expect(runsAlone(s, true)).toBe(false);
      expect(runsAlone(s, false)).toBe(true);
    }
    // Waiting for the clock under --slow changes nothing shared: those waits overlap.
    expect(runsAlone(scenario({ ...base, requires: { control: true } }), false)).toBe(false);
    expect(runsAlone(scenario(base), false)).toBe(false);
  });
});
