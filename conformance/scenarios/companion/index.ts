import type { Scenario } from '../../src/dsl.js';
import { COMPAT_LOOKUPS } from './compat-lookups.js';
import { EDIT_DELETE } from './edit-delete.js';
import { FLAGS_REACTIONS } from './flags-reactions.js';
import { COMPANION_GAPS } from './gaps.js';
import { HISTORY } from './history.js';
import { LIVE } from './live.js';

/**
 * The companion tier: operations the spec does not list that real client applications call
 * (message history, reactions, flags, edits, typing, presence, uploads, bot storage, lookups). Their
 * contract is the reference server's documented behaviour; their rules live in conformance/rules/companion/.
 * `teamchat conform` runs them only with `--tier companion` or `--tier all`: a server implementing only the
 * spec is not failed for them. One module per area, listed here.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const COMPANION: Scenario<any, any>[] = [
  // one spread per area module
  ...HISTORY,
  ...LIVE,
  ...FLAGS_REACTIONS,
  ...EDIT_DELETE,
  ...COMPAT_LOOKUPS,
  ...COMPANION_GAPS,
];
