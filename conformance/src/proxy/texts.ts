import type { JudgedLevel } from '../openapi.js';
import { spanHolds, spanText, type DocumentedMessage, type LevelSpan } from './contract.js';

/**
 * The documented `msg` texts of each error code as patterns, with the feature levels each is answered at
 * (examples marked `x-feature-level` / `x-feature-level-removed`). BAD_REQUEST's texts are as many as the checks
 * of every operation and are not judged; the other codes' have a fixed form.
 */
export class DocumentedTexts {
  readonly #byCode = new Map<string, { pattern: RegExp; span: LevelSpan }[]>();

  constructor(messages: ReadonlyMap<string, readonly DocumentedMessage[]>) {
    for (const [code, list] of messages)
      if (code !== 'BAD_REQUEST')
        this.#byCode.set(
          code,
          list.map((m) => ({ pattern: template(m.msg), span: m.span })),
        );
  }

  /**
   * Why `msg` is not a text of `code` at `level` (one of any level's when the level is unknown), naming the
   * level it belongs to when it is another level's; null when it is one, or the code's texts are not judged.
   */
  problem(code: string, msg: unknown, level: JudgedLevel): string | null {
    const templates = this.#byCode.get(code);
    if (!templates || typeof msg !== 'string' || templates.some((t) => spanHolds(t.span, level) && t.pattern.test(msg))) return null;
    const other = templates.filter((t) => t.pattern.test(msg)).map((t) => t.span);
    if (other.length > 0) return `msg ${JSON.stringify(msg)} is the ${code} text ${spanText(other)}; the server announced ${level}`;
    return `msg ${JSON.stringify(msg)} is none of the documented ${code} messages${level === null ? '' : ` at feature level ${level}`}`;
  }
}

/**
 * A documented message as a pattern: quoted names, numbers and queue IDs vary with the request
 * (`Missing 'content' argument`, `Channel with ID '999' does not exist`), and so does what follows
 * "operator:" in BAD_NARROW's texts; the rest must be the same words.
 */
function template(msg: string): RegExp {
  const escaped = msg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const source = escaped
    .replace(/'[^']*'/g, "'[^']*'")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '\\S+')
    .replace(/\d+/g, '\\d+')
    .replace(/operator: .*$/, 'operator:.*');
  return new RegExp(`^${source}$`);
}
