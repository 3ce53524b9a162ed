import { pino, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';
import type { Output } from '../../cli/common.js';

export const LOG_LEVELS = ['silent', 'info', 'debug'] as const;
export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * The logger of `teamchat serve` (--log-level, --log-format; README "Request log"). Lines are written
 * synchronously to the command's stdout: no worker thread (pino's transports) to own and end, and the
 * shutdown line is out before the process exits. json: one pino object per line (`time` in epoch ms, the
 * machine's time, not a realm's); pretty: pino-pretty's one human line per request.
 */
export function serveLogger(options: { level: LogLevel; format: LogFormat; out: Output; colour?: boolean }): Logger {
  const { level, format, out } = options;
  if (format === 'json') return pino({ level, base: null }, { write: (line: string) => void out.write(line) });
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
