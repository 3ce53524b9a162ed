import { describe, expect, it } from 'vitest';
import { Clock } from '../../src/clock/clock.js';

describe('Clock', () => {
  it('keeps time per realm: server time plus the realm offset', () => {
    const clock = new Clock('frozen', 1_000);
    const offsets: Record<string, number> = { a: 0, b: 500 };
    clock.resolveOffsetsWith((id) => offsets[id] ?? 0);
    expect(clock.now('a')).toBe(1_000);
    expect(clock.now('b')).toBe(1_500);
    clock.advanceServer(30);
    expect([clock.now('a'), clock.now('b')]).toEqual([1_030, 1_530]);
  });

  it('fires frozen-clock timers only when time is advanced past them, in due order', () => {
    const clock = new Clock('frozen', 0);
    const fired: string[] = [];
    clock.setTimer('r', 60, () => fired.push('heartbeat'));
    clock.setTimer('r', 600, () => fired.push('expiry'));
    clock.setTimer('r', 30, () => fired.push('first'));
    clock.advanceServer(59);
    expect(fired).toEqual(['first']);
    clock.advanceServer(600);
    expect(fired).toEqual(['first', 'heartbeat', 'expiry']);
    expect(clock.pendingTimers).toBe(0);
  });

  it('runs the other due timers when one throws, and logs the failure instead of throwing at the caller', () => {
    const clock = new Clock('frozen', 0);
    const fired: string[] = [];
    const logged: unknown[] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    try {
      clock.setTimer('r', 10, () => fired.push('before'));
      clock.setTimer('r', 20, () => {
        throw new Error('broken timer');
      });
      clock.setTimer('r', 30, () => fired.push('after'));
      expect(() => clock.advanceServer(60)).not.toThrow();
    } finally {
      console.error = error;
    }
    expect(fired).toEqual(['before', 'after']);
    expect(String(logged[0])).toContain("a timer of realm 'r' failed");
  });

  it('fires a realm timer when only that realm moves forward', () => {
    const clock = new Clock('frozen', 0);
    const offsets: Record<string, number> = { a: 0, b: 0 };
    clock.resolveOffsetsWith((id) => offsets[id] ?? 0);
    const fired: string[] = [];
    clock.setTimer('a', 100, () => fired.push('a'));
    clock.setTimer('b', 100, () => fired.push('b'));
    offsets.a = 100;
    clock.fireDue('a');
    expect(fired).toEqual(['a']);
  });

  it('cancels timers', () => {
    const clock = new Clock('frozen', 0);
    let fired = false;
    const cancel = clock.setTimeout('r', 10, () => (fired = true));
    cancel();
    clock.advanceServer(20);
    expect(fired).toBe(false);
  });

  it('fires system-clock timers in real time', async () => {
    const clock = new Clock('system');
    const fired = await new Promise<boolean>((done) => {
      clock.setTimeout('r', 0.05, () => done(true));
    });
    expect(fired).toBe(true);
    clock.stop();
  });
});
