import { constants } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Output } from './common.js';

/**
 * SIGINT and SIGTERM for a command that has work to finish once told to stop: `serve` saves its state,
 * `conform` lets the scenarios under way put back what they changed and writes its reports, `proxy` writes
 * its reports. One module, so the three behave alike.
 *
 * A terminal's Ctrl-C reaches every process of the foreground group: through `npm start` / `npm run`, npm and
 * node both get it and npm passes its own copy on, so one key press arrives twice. Handlers installed with
 * `process.once` were gone for the copy, which found Node's default action (death by the signal) and lost the
 * work halfway. So:
 * - the handlers stay installed until the work is done (`dispose`);
 * - a signal that follows the last counted one by less than PRESS_GAP_MS is the same press, and ignored;
 * - the first press starts the work; a second is only told (one line: what is still under way);
 * - the FORCE_PRESSES-th ends the process at once, with 128 + the signal's number (130 for SIGINT, 143 for
 *   SIGTERM: the shell's code for death by a signal) and a line saying what is left undone, for someone who
 *   will not wait.
 */

/** Signals closer together than this are one key press (npm's relay follows the terminal's within ms). */
export const PRESS_GAP_MS = 500;
/** The press that ends the process without finishing the work (the lines below say "a third time"). */
export const FORCE_PRESSES = 3;

export const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Where signals come from: the process, or an emitter in tests. */
export interface SignalSource {
  on(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  off(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
}

export interface InterruptOptions {
  /** The command's name, for its lines ("teamchat serve"). */
  name: string;
  /** What the command does after the first press, for the second press's line ("writing the reports"). */
  finishing: string;
  /** What a forced exit leaves undone ("no report written"). */
  forcedNote: string;
  stderr: Output;
  /** Where signals come from (tests pass an emitter); default: the process. */
  signals?: SignalSource;
  /** How a forced exit ends the process (tests pass a spy); default: process.exit. */
  exit?: (code: number) => void;
  /** Milliseconds, for telling presses apart (tests pass a clock they move); default: performance.now. */
  now?: () => number;
}

/** The exit code of a process ended by a signal, as a shell reports it (128 + the signal's number). */
export const signalExitCode = (signal: NodeJS.Signals): number => 128 + constants.signals[signal];

/**
 * Calls `onFirst` on the first SIGINT or SIGTERM. Returns `dispose`, which removes the handlers (Node's
 * defaults apply again): call it once the work `onFirst` started is done, or when the command ends without
 * a signal.
 */
export function onInterrupt(onFirst: (signal: NodeJS.Signals) => void, options: InterruptOptions): () => void {
  const signals = options.signals ?? process;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const now = options.now ?? (() => performance.now());
  let presses = 0;
  let last = -Infinity;
  const handler = (signal: NodeJS.Signals) => {
    const time = now();
    if (time - last < PRESS_GAP_MS) return;
    presses += 1;
    last = time;
    if (presses === 1) onFirst(signal);
    else if (presses < FORCE_PRESSES) {
      const left = FORCE_PRESSES - presses;
      const more = left === 1 ? 'once more' : `${left} more times`;
      options.stderr.write(`${options.name}: ${signal} again: still ${options.finishing}; ${more} to exit now\n`);
    } else {
      options.stderr.write(`${options.name}: ${signal} a third time: exiting now; ${options.forcedNote}\n`);
      exit(signalExitCode(signal));
    }
  };
  for (const signal of SHUTDOWN_SIGNALS) signals.on(signal, handler);
  return () => {
    for (const signal of SHUTDOWN_SIGNALS) signals.off(signal, handler);
  };
}

/**
 * A long-running command's last line of defence: an exception or rejection nothing caught is told (`tell`), and
 * the process goes on, so what it holds (a mock's realms, a proxy's verdicts) is not lost to one bug. Every known
 * cause has its own error path; this is for what nobody foresaw. Returns the function that removes the handlers.
 */
export function onEscapedErrors(tell: (what: 'uncaught exception' | 'unhandled rejection', error: unknown) => void): () => void {
  const onException = (error: unknown) => tell('uncaught exception', error);
  const onRejection = (error: unknown) => tell('unhandled rejection', error);
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return () => {
    process.off('uncaughtException', onException);
    process.off('unhandledRejection', onRejection);
  };
}
