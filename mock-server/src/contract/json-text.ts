/**
 * JSON text made once for many answers (an event's body, the same for every recipient of a fan-out) and
 * kept beside the list that will be answered, so the answer writer (http/respond.ts sendJson) splices it
 * instead of stringifying each element again. Below every layer, as the events layer makes the texts and
 * the HTTP layer writes them, and neither may import the other.
 *
 * The texts are a hint beside real values, never the values themselves: every reader of the list sees the
 * objects; only the writer uses the texts. A list copied or changed on the way (pruning for an older
 * feature level copies what it changes) is no longer the list the texts were kept for, and is written as
 * it is.
 */
const TEXTS = Symbol('json texts');

/**
 * Keeps `texts` for `list`: `texts[i]`, where defined, must be exactly `JSON.stringify(list[i])`, and
 * neither `list` nor its elements may change afterwards. Returns `list`. The texts ride on the list itself
 * (a hidden property that JSON.stringify, copies and deep equality do not see), not in a WeakMap: a fan-out
 * to thousands answers thousands of lists at once, and a WeakMap's entries cost the collector work on each.
 */
export function withJsonTexts<T>(list: T[], texts: readonly (string | undefined)[]): T[] {
  if (texts.length === list.length) Object.defineProperty(list, TEXTS, { value: texts });
  return list;
}

/** The texts kept for this very list, if any (one per element, undefined where none was made). */
export function jsonTextsOf(list: readonly unknown[]): readonly (string | undefined)[] | undefined {
  return (list as { [TEXTS]?: readonly (string | undefined)[] })[TEXTS];
}
