import { constants } from 'node:os';
import { performance } from 'node:perf_hooks';

/**
 * SIGINT and SIGTERM for a command that has work to finish once told to stop (`teamchat proxy` writes its
 * reports then). A terminal's Ctrl-C reaches every process of the foreground group: through `npm run`, npm and
 * node both get it and npm passes its own on, so one key press arrives twice. Handlers installed with
 * `process.once` were gone for the second, which found Node's default action (death by the signal) and lost
 * the reports 6 times in 10. So the handlers stay installed until the work is done (`release`), signals that
 * follow the last counted one by less than PRESS_GAP_MS are the same press, a second press is only told, and
 * the FORCE_PRESSES-th ends the process at once with 128 + the signal's number (130 for SIGINT), the shell's
 * code for death by a signal, for someone who will not wait.
 */

/** Signals closer together than this are one key press (npm's relay follows the terminal's within ms). */
export const PRESS_GAP_MS = 500;
/** The press that ends the process without finishing the work. */
export const FORCE_PRESSES = 3;

export type StopSignal = 'SIGINT' | 'SIGTERM';

export interface StopSignalOptions {
  /** Told of a press after the first that does not force the exit yet: how many more would. */
  onRepeat?(signal: StopSignal, pressesLeft: number): void;
  /** Told just before the forced exit. */
  onForce?(signal: StopSignal, code: number): void;
  /** Ends the process (tests replace it). */
  exit?(code: number): void;
  /** Milliseconds, for telling presses apart (tests replace it). */
  now?(): number;
}

export interface StopSignals {
  /** The first SIGINT or SIGTERM. */
  readonly received: Promise<StopSignal>;
  /** Removes the handlers once the work is done; Node's defaults apply again. */
  release(): void;
}

export function stopSignals(options: StopSignalOptions = {}): StopSignals {
  let presses = 0;
  let last = -Infinity;
  let firstSignal!: (signal: StopSignal) => void;
  const received = new Promise<StopSignal>((resolve) => (firstSignal = resolve));
  const handler = (signal: StopSignal) => {
    const now = (options.now ?? performance.now.bind(performance))();
    if (now - last < PRESS_GAP_MS) return;
    presses += 1;
    last = now;
    if (presses === 1) firstSignal(signal);
    else if (presses < FORCE_PRESSES) options.onRepeat?.(signal, FORCE_PRESSES - presses);
    else {
      const code = 128 + constants.signals[signal];
      options.onForce?.(signal, code);
      (options.exit ?? process.exit)(code);
    }
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    received,
    release() {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
