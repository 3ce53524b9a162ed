import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { FORCE_PRESSES, onInterrupt, PRESS_GAP_MS, signalExitCode } from '../signals.js';

/**
 * The handlers of a command that finishes work after SIGINT/SIGTERM (cli/signals.ts), driven by emitting the
 * signals' events (on this process, or on an emitter passed as the source; no signal is sent) with a clock the
 * test moves. Through npm and a real process group: compiled.test.ts (serve, conform) and proxy-signals.ts.
 */
let dispose: (() => void) | undefined;
afterEach(() => {
  dispose?.();
  dispose = undefined;
});

interface Options {
  signals?: EventEmitter;
  /** The module's own clock instead of the test's. */
  realClock?: boolean;
}

/** Handlers on the process (or `options.signals`), with a clock that moves only when `send` is told `after`. */
function setUp(options: Options = {}) {
  let time = 1_000;
  const firsts: NodeJS.Signals[] = [];
  const exits: number[] = [];
  const lines: string[] = [];
  dispose = onInterrupt((signal) => void firsts.push(signal), {
    name: 'teamchat test',
    finishing: 'writing the reports',
    forcedNote: 'no report written',
    stderr: { write: (text: string) => lines.push(text) },
    exit: (code) => void exits.push(code),
    ...(options.realClock ? {} : { now: () => time }),
    ...(options.signals ? { signals: options.signals } : {}),
  });
  const source: EventEmitter = options.signals ?? process;
  const send = (signal: 'SIGINT' | 'SIGTERM', after = 0) => {
    time += after;
    source.emit(signal, signal);
  };
  return { firsts, exits, lines, send };
}

const AGAIN = (signal: string) => `teamchat test: ${signal} again: still writing the reports; once more to exit now\n`;
const FORCED = (signal: string) => `teamchat test: ${signal} a third time: exiting now; no report written\n`;

describe('onInterrupt', () => {
  it('calls back on the first signal; a relay of the same press is ignored; the handlers stay until disposed', () => {
    const before = process.listenerCount('SIGINT');
    const beforeTerm = process.listenerCount('SIGTERM');
    const { firsts, exits, lines, send } = setUp();
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    expect(process.listenerCount('SIGTERM')).toBe(beforeTerm + 1);
    send('SIGINT');
    send('SIGINT', 5);
    expect(firsts).toEqual(['SIGINT']);
    expect([exits, lines]).toEqual([[], []]);
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    dispose!();
    expect(process.listenerCount('SIGINT')).toBe(before);
    expect(process.listenerCount('SIGTERM')).toBe(beforeTerm);
  });

  it(`a second press is told in one line; the ${FORCE_PRESSES}rd ends the process with 128 + the signal's number`, () => {
    const { firsts, exits, lines, send } = setUp();
    send('SIGTERM');
    send('SIGTERM', PRESS_GAP_MS + 1);
    send('SIGTERM', 10);
    expect(firsts).toEqual(['SIGTERM']);
    expect(lines).toEqual([AGAIN('SIGTERM')]);
    expect(exits).toEqual([]);
    send('SIGINT', PRESS_GAP_MS + 1);
    expect(lines).toEqual([AGAIN('SIGTERM'), FORCED('SIGINT')]);
    expect(exits).toEqual([130]);
  });

  it('three SIGTERM presses exit 143; each press relayed twice counts once', () => {
    const { firsts, exits, lines, send } = setUp();
    for (let press = 0; press < 3; press++) {
      send('SIGTERM', PRESS_GAP_MS);
      send('SIGTERM', 3);
    }
    expect(firsts).toEqual(['SIGTERM']);
    expect(lines).toEqual([AGAIN('SIGTERM'), FORCED('SIGTERM')]);
    expect(exits).toEqual([143]);
  });

  it('the gap is counted from the last counted press, not from the last signal', () => {
    const { firsts, lines, send } = setUp();
    send('SIGINT');
    send('SIGINT', PRESS_GAP_MS - 1); // the same press
    expect(lines).toEqual([]);
    send('SIGINT', 1); // PRESS_GAP_MS after the first: a new press, although 1 ms after the last signal
    expect(firsts).toEqual(['SIGINT']);
    expect(lines).toEqual([AGAIN('SIGINT')]);
  });

  it('takes its signals from the source it is given, and leaves the process alone', () => {
    const signals = new EventEmitter();
    const processListeners = process.listenerCount('SIGINT') + process.listenerCount('SIGTERM');
    const { firsts, send } = setUp({ signals });
    expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(2);
    expect(process.listenerCount('SIGINT') + process.listenerCount('SIGTERM')).toBe(processListeners);
    send('SIGINT');
    expect(firsts).toEqual(['SIGINT']);
    dispose!();
    expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(0);
    // Disposed: a later signal finds no handler of this module.
    send('SIGTERM', PRESS_GAP_MS + 1);
    expect(firsts).toEqual(['SIGINT']);
  });

  it('without a clock given, signals emitted one after the other are one press', () => {
    const signals = new EventEmitter();
    const { firsts, exits, lines } = setUp({ signals, realClock: true });
    for (let i = 0; i < 4; i++) signals.emit('SIGINT', 'SIGINT');
    expect([firsts, exits, lines]).toEqual([['SIGINT'], [], []]);
  });

  it('the exit code of a death by signal is 128 + its number', () => {
    expect([signalExitCode('SIGINT'), signalExitCode('SIGTERM')]).toEqual([130, 143]);
  });
});
