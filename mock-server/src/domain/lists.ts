/**
 * Adds `value` to the list kept under `key`, making the list on first use. In place: a copy per value (the
 * `[...(map.get(key) ?? []), value]` idiom) makes grouping N values under one key cost N²/2 copies.
 */
export function appendTo<K, V>(lists: Map<K, V[]>, key: K, value: V): void {
  const list = lists.get(key);
  if (list) list.push(value);
  else lists.set(key, [value]);
}
