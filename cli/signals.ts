import type { Output } from './common.js';

/**
 * SIGINT and SIGTERM for a command that has work to finish before it exits (`serve` saves its state,
 * `conform` writes its reports). A terminal's Ctrl-C reaches every process of the group: through
 * `npm start` node gets the terminal's signal and npm's forwarded copy, so one Ctrl-C is two signals. The
 * first starts the work; the handlers stay installed until the work is done, so the copy finds them and is
 * ignored (with node's default handler it would end the process halfway); a third signal is someone
 * insisting, and ends the process at once with a line saying what was left undone.
 */
export interface SignalSource {
  on(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  off(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
}

export interface InterruptOptions {
  /** The command's name, for the forced-exit line ("teamchat serve"). */
  name: string;
  /** What a forced exit leaves undone ("the state is saved up to the last acknowledged write"). */
  forcedNote: string;
  stderr: Output;
  /** Where signals come from (tests pass an emitter); default: the process. */
  signals?: SignalSource;
  /** How a forced exit ends the process (tests pass a spy); default: process.exit. */
  exit?: (code: number) => void;
}

export const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** The exit code of a process ended by a signal, as a shell reports it (128 + the signal's number). */
export const signalExitCode = (signal: NodeJS.Signals): number => (signal === 'SIGINT' ? 130 : 143);

/**
 * Calls `onFirst` on the first SIGINT or SIGTERM. Returns `dispose`, which removes the handlers: call it
 * once the work `onFirst` started is done (or when the command ends without a signal).
 */
export function onInterrupt(onFirst: (signal: NodeJS.Signals) => void, options: InterruptOptions): () => void {
  const signals = options.signals ?? process;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let received = 0;
  const handler = (signal: NodeJS.Signals) => {
    received++;
    if (received === 1) onFirst(signal);
    else if (received >= 3) {
      options.stderr.write(`${options.name}: ${signal} a third time: exiting now; ${options.forcedNote}\n`);
      exit(signalExitCode(signal));
    }
  };
  for (const signal of SHUTDOWN_SIGNALS) signals.on(signal, handler);
  return () => {
    for (const signal of SHUTDOWN_SIGNALS) signals.off(signal, handler);
  };
}
