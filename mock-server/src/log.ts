import type { Logger } from 'pino';
import type { Output } from '../../cli/common.js';
import { onEscapedErrors } from '../../cli/signals.js';

export const LOG_LEVELS = ['silent', 'info', 'debug'] as const;
export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * The logger of `teamchat serve` (--log-level, --log-format; docs/running-the-mock.md). Lines are written
 * synchronously to the command's stdout: no worker thread (pino's transports) to own and end, and the
 * shutdown line is out before the process exits. json: one pino object per line (`time` in epoch ms, the
 * machine's time, not a realm's); pretty: pino-pretty's one human line per request.
 */
export async function serveLogger(options: { level: LogLevel; format: LogFormat; out: Output; colour?: boolean }): Promise<Logger> {
  const { level, format, out } = options;
  // Loaded on use: pino and pino-pretty cost ~0.1 s of start-up each, which `--log-level silent` (no
  // logger is made: the benchmarks, tests spawning servers) and the json format (pino only) need not pay.
  // Through `default` (the CommonJS module.exports): the build's bundle (tools/build.ts) gives a CommonJS
  // module loaded on demand only that, where Node also gives the names its lexer found.
  const { pino } = (await import('pino')).default;
  if (format === 'json') return pino({ level, base: null }, { write: (line: string) => void out.write(line) });
  const { prettyFactory } = (await import('pino-pretty')).default;
  const pretty = prettyFactory({
    colorize: options.colour ?? false,
    translateTime: 'SYS:HH:MM:ss.l',
    // The message already says who, what and how it went; the fields repeat it. At debug the bodies
    // (`req`, `res`) are left to follow it, indented.
    ignore: 'pid,hostname,realm,user,method,path,status,ms,error,signal,state',
    singleLine: false,
  });
  return pino({ level, base: null }, { write: (line: string) => void out.write(pretty(line)) });
}

/** The default format: pretty for a person at a terminal, json for a program (a pipe, a file, CI). */
export const defaultLogFormat = (isTTY: boolean | undefined): LogFormat => (isTTY ? 'pretty' : 'json');

/**
 * The last line of defence of `teamchat serve`: an exception or rejection nothing caught is written to the
 * command's stderr (and the request log) and the server keeps serving, so the realms it holds in memory are not
 * lost to one bug. Every known cause has its own error path (body parsers, timers, the inspector's feed); this
 * is only for what nobody foresaw. Returns the function that removes the handlers (the serve command's stop).
 */
export function keepServingOnEscapedErrors(report: { stderr: Output; logger?: Logger | null }): () => void {
  return onEscapedErrors((what, error) => {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    report.stderr.write(`teamchat serve: ${what} (this is a bug; still serving): ${text}\n`);
    report.logger?.error({ error: text }, `teamchat serve: ${what}`);
  });
}
