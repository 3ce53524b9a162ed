import { jsonTooDeep } from './errors.js';

/**
 * How deep a JSON value from a client may nest: every JSON parameter of the API (http/params.ts) and the
 * event of the control API's injection. The reference server's parser (orjson) refuses beyond 1,024
 * levels; the mock goes lower because its own walks over stored values (the inspector's redaction,
 * presenters, `structuredClone`) recurse, and 20,000 levels overflowed the stack inside a timer. No
 * client nests beyond a handful.
 */
export const MAX_JSON_DEPTH = 100;

/** Throws a 400 naming `name` when `value` nests deeper than MAX_JSON_DEPTH; never recurses itself. */
export function checkJsonDepth(value: unknown, name: string): void {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) throw jsonTooDeep(name, MAX_JSON_DEPTH);
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
}
