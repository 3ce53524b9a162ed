import type { RealmState } from '../../store/state.js';
import { orderedLinkifiers } from '../linkifiers/present.js';

/**
 * GET /realm/filters, the reference server's older list (the stock JavaScript client's filters.retrieve):
 * each linkifier as `[pattern, url_template, id]`, in display order. The older server sent its URL format
 * string in the second place; this server stores only RFC 6570 templates, so that is what is sent (a
 * client that only shows the rule reads it either way).
 */
export function linkifierTuples(tables: Pick<RealmState, 'linkifiers'>): [string, string, number][] {
  return orderedLinkifiers(tables).map((row) => [row.pattern, row.url_template, row.id]);
}
