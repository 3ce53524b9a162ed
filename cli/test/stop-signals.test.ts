import { afterEach, describe, expect, it } from 'vitest';
import { FORCE_PRESSES, PRESS_GAP_MS, stopSignals, type StopSignals } from '../stop-signals.js';

/**
 * The handlers of a command that finishes work after SIGINT/SIGTERM (cli/stop-signals.ts), driven by emitting
 * the signals' events on this process (no signal is sent) with a clock the test moves. Through npm and a real
 * process group: proxy-signals.ts (run by compiled.test.ts).
 */
let handlers: StopSignals | undefined;
afterEach(() => handlers?.release());

function setUp() {
  let time = 1_000;
  const exits: number[] = [];
  const told: string[] = [];
  handlers = stopSignals({
    now: () => time,
    exit: (code) => void exits.push(code),
    onRepeat: (signal, left) => void told.push(`${signal} ${left}`),
    onForce: (signal, code) => void told.push(`force ${signal} ${code}`),
  });
  const send = (signal: 'SIGINT' | 'SIGTERM', after = 0) => {
    time += after;
    process.emit(signal, signal);
  };
  return { handlers, exits, told, send };
}

describe('stopSignals', () => {
  it('resolves with the first signal; a relay of the same press is ignored; the handlers stay', async () => {
    const before = process.listenerCount('SIGINT');
    const beforeTerm = process.listenerCount('SIGTERM');
    const { handlers, exits, told, send } = setUp();
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    send('SIGINT');
    send('SIGINT', 5);
    expect(await handlers.received).toBe('SIGINT');
    expect([exits, told]).toEqual([[], []]);
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    handlers.release();
    expect(process.listenerCount('SIGINT')).toBe(before);
    expect(process.listenerCount('SIGTERM')).toBe(beforeTerm);
  });

  it(`a second press is told; the ${FORCE_PRESSES}rd ends the process with 128 + the signal's number`, async () => {
    const { handlers, exits, told, send } = setUp();
    send('SIGTERM');
    send('SIGTERM', PRESS_GAP_MS + 1);
    send('SIGTERM', 10);
    expect(await handlers.received).toBe('SIGTERM');
    expect(told).toEqual([`SIGTERM ${FORCE_PRESSES - 2}`]);
    expect(exits).toEqual([]);
    send('SIGINT', PRESS_GAP_MS + 1);
    expect(told).toEqual([`SIGTERM ${FORCE_PRESSES - 2}`, 'force SIGINT 130']);
    expect(exits).toEqual([130]);
  });
});
