import { describe, expect, it } from 'vitest';
import { Clock } from '../../src/clock/clock.js';
import { Deadline, DeadlineSweep } from '../../src/events/deadlines.js';
import { HEARTBEAT_SECONDS, QUEUE_IDLE_SECONDS, QueueRegistry } from '../../src/events/registry.js';
import { queueDescriptor } from '../helpers/queue-descriptor.js';

/**
 * The deadline sweep (events/deadlines.ts) that replaced a clock timer per queue and poll: deadlines fall due
 * exactly at their realm time, in due order across kinds, one clock timer per realm, none once a realm has no
 * deadline left. Frozen clock: time moves only when the test moves it.
 */
const START = 1_000_000;

function sweepWithLog() {
  const clock = new Clock('frozen', START);
  const fired: string[] = [];
  const sweep = new DeadlineSweep<string>(clock, (owner, kind) => fired.push(`${owner}/${kind}`), 2);
  return { clock, fired, sweep };
}

describe('deadline sweep', () => {
  it('fires each deadline when realm time reaches it, earliest first across kinds, with one timer per realm', () => {
    const { clock, fired, sweep } = sweepWithLog();
    const [a, b, c] = ['a', 'b', 'c'].map((name) => new Deadline(name));
    sweep.set('r', 0, a!, START * 1000 + 30_000);
    sweep.set('r', 1, b!, START * 1000 + 10_000);
    sweep.set('r', 0, c!, START * 1000 + 20_000);
    expect(clock.pendingTimers).toBe(1);
    clock.advanceServer(9.999);
    expect(fired).toEqual([]);
    clock.advanceServer(0.001);
    expect(fired).toEqual(['b/1']);
    clock.advanceServer(100);
    expect(fired).toEqual(['b/1', 'c/0', 'a/0']);
    expect(clock.pendingTimers).toBe(0);
  });

  it('keeps due order when a deadline is set earlier than the last one (time went backwards), and moves one that is set again', () => {
    const { clock, fired, sweep } = sweepWithLog();
    const [a, b] = ['a', 'b'].map((name) => new Deadline(name));
    sweep.set('r', 0, a!, START * 1000 + 50_000);
    sweep.set('r', 0, b!, START * 1000 + 5_000);
    clock.advanceServer(6);
    expect(fired).toEqual(['b/0']);
    sweep.set('r', 0, a!, START * 1000 + 7_000);
    clock.advanceServer(1);
    expect(fired).toEqual(['b/0', 'a/0']);
  });

  it('drops a realm’s timer once its last deadline is removed, and a removed deadline never fires', () => {
    const { clock, fired, sweep } = sweepWithLog();
    const a = new Deadline('a');
    sweep.set('r', 1, a, START * 1000 + 1_000);
    sweep.set('s', 1, new Deadline('s'), START * 1000 + 1_000);
    expect(clock.pendingTimers).toBe(2);
    sweep.remove('r', 1, a);
    expect(clock.pendingTimers).toBe(1);
    clock.advanceServer(10);
    expect(fired).toEqual(['s/1']);
  });
});

describe('queue deadlines through the registry', () => {
  const descriptor = queueDescriptor();

  it('answers each of many waiting polls with one heartbeat at exactly one minute, on one timer', async () => {
    const clock = new Clock('frozen', START);
    const registry = new QueueRegistry(clock);
    const queues = Array.from({ length: 50 }, (_, i) => registry.create('r', i + 1, descriptor, 0));
    const polls = queues.map((q) => registry.wait(q, new AbortController().signal));
    expect(clock.pendingTimers).toBe(1);
    clock.advanceServer(HEARTBEAT_SECONDS - 1);
    expect(queues.every((q) => q.events.length === 0)).toBe(true);
    clock.advanceServer(1);
    await Promise.all(polls);
    expect(queues.map((q) => q.events)).toEqual(queues.map(() => [{ type: 'heartbeat', id: 0 }]));
    registry.closeAll();
  });

  it('ends an idle queue at exactly ten minutes, and a client gone before its wait ends the wait at once', async () => {
    const clock = new Clock('frozen', START);
    const registry = new QueueRegistry(clock);
    const idle = registry.create('r', 1, descriptor, 0);
    const gone = registry.create('r', 2, descriptor, 0);
    const controller = new AbortController();
    controller.abort();
    await registry.wait(gone, controller.signal);
    expect(gone.waiter).toBeNull();
    // As GET /events does after every wait: the queue is checked and its idle time starts again.
    registry.resume(gone);
    clock.advanceServer(QUEUE_IDLE_SECONDS - 1);
    expect(registry.size).toBe(2);
    clock.advanceServer(1);
    expect(registry.size).toBe(0);
    expect(idle.waiter).toBeNull();
    expect(clock.pendingTimers).toBe(0);
  });
});
