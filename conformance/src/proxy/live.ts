import { styleText } from 'node:util';
import type { Output } from '../report/index.js';
import type { Violation } from './recorder.js';

type Style = Parameters<typeof styleText>[0];

/**
 * The proxy's terminal output: one block per violation as it happens (rule ID, § of the spec, the
 * exchange, what is wrong), a line when the target announces its feature level, and with --verbose one
 * line per exchange judged clean. Colour only on a terminal (or FORCE_COLOR), never with NO_COLOR.
 */
export class LivePrinter {
  constructor(
    private readonly out: Output,
    private readonly color: boolean,
    private readonly verbose = false,
  ) {}

  #paint(style: Style, text: string): string {
    // This class decides (wantsColor); newer Node versions would otherwise check process.stdout themselves.
    return this.color ? styleText(style, text, { validateStream: false }) : text;
  }

  listening(url: string, target: string, rules: number, beyondLoopback = false): void {
    this.out.write(`${this.#paint('bold', 'teamchat proxy')}: ${url} → ${target}\n`);
    if (beyondLoopback)
      this.out.write(
        this.#paint(
          'yellow',
          'listening beyond loopback: the control API (/__mock/) and the inspector (/, /__inspector/) are not forwarded',
        ) + '\n',
      );
    this.out.write(
      this.#paint(
        'dim',
        `checking every exchange against openapi/team-chat.openapi.yaml and ${rules} catalogue rules; Ctrl-C writes the reports`,
      ) + '\n',
    );
  }

  level(level: number, who: string): void {
    this.out.write(`${this.#paint('cyan', '●')} feature level ${this.#paint('bold', String(level))} announced to ${who}\n`);
  }

  violation(v: Violation): void {
    const { finding, exchange: x } = v;
    const rule = finding.rule ?? 'no rule';
    this.out.write(
      `${this.#paint('red', '✗')} ${this.#paint(['bold', 'red'], rule)} ${this.#paint('yellow', `§${finding.section}`)}  ${x.method} ${x.path} → ${this.#status(x.status)}` +
        `${v.operationId ? this.#paint('dim', `  ${v.operationId}`) : ''}\n    ${finding.message}\n`,
    );
  }

  clean(method: string, path: string, status: number, ms: number): void {
    if (this.verbose) this.out.write(`${this.#paint('green', '✓')} ${this.#paint('dim', `${method} ${path} → ${status}  ${ms} ms`)}\n`);
  }

  unjudged(method: string, path: string, reason: string): void {
    this.out.write(`${this.#paint('yellow', '!')} ${method} ${path}: forwarded, but not judged (${reason})\n`);
  }

  #status(status: number): string {
    return this.#paint(status >= 400 ? 'magenta' : 'green', String(status));
  }
}

/** Colour when the stream is a terminal, or FORCE_COLOR asks; NO_COLOR (no-color.org) always wins. */
export function wantsColor(stream: unknown, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return (stream as { isTTY?: boolean }).isTTY === true;
}
