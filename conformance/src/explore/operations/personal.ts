import type { ExploreActor } from '../actors.js';
import { ref, type Knowledge, type Owned } from '../knowledge.js';
import type { Step, StepValue } from '../types.js';
import { liveChannelsOf } from '../visibility.js';
import { NO_SUCH_ID } from './messages.js';
import { pathKey } from './reads.js';
import { pick, type Plan, type Template, type VerifyContext } from './template.js';

/**
 * The actor's own things (drafts, saved snippets, navigation views, its status): made, edited and
 * removed by their owner, so every valid step must succeed. Each is read back from its list operation by
 * its owner and is absent from another actor's list; what outlives the sequence is removed at teardown.
 */

type Row = Record<string, unknown>;

/** Reads the owner's list and another actor's: the thing is in the first as written and not in the second. */
export async function verifyListed(
  v: VerifyContext,
  list: { path: string; field: string; id: string },
  key: string,
  expected: Record<string, StepValue> | null,
): Promise<void> {
  const id = v.k.idOf(key) ?? key;
  const read = await v.actor.call('GET', list.path);
  const rows = read.body[list.field] as Row[] | undefined;
  if (read.status !== 200 || !Array.isArray(rows))
    return v.fail(`${v.actor.name} cannot read ${list.path} (${read.status})`, v.actor.name, read.body);
  const row = rows.find((r) => r[list.id] === id);
  if (expected === null) {
    if (row) v.fail(`${v.actor.name} removed ${key}, and ${list.path} still lists it`, v.actor.name, row);
    return;
  }
  if (!row) return v.fail(`${v.actor.name} made ${key}, and ${list.path} does not list it`, v.actor.name, rows);
  for (const [field, value] of Object.entries(expected))
    if (JSON.stringify(row[field]) !== JSON.stringify(v.k.resolve(value)))
      v.fail(`${key}'s ${field} was written ${JSON.stringify(value)}, ${list.path} reads ${JSON.stringify(row[field])}`, v.actor.name, row);
  const other = v.actors.find((a) => a !== v.actor);
  if (!other) return;
  const theirs = await other.call('GET', list.path);
  if (((theirs.body[list.field] ?? []) as Row[]).some((r) => r[list.id] === id))
    v.fail(`${other.name}'s ${list.path} lists ${v.actor.name}'s ${key}`, other.name);
}

/** A replayed edit or removal is valid while its owner still has the thing its path names. */
const stillOwned =
  (kind: string, keyOf: (step: Step) => string = pathKey) =>
  ({ k, actor }: { k: Knowledge; actor: ExploreActor }, step: Step): boolean =>
    k.ownedOf(kind, actor.name).some((o) => o.key === keyOf(step));

/** What the owner has of a kind, for steps that edit or remove it. */
const mine = (k: Knowledge, kind: string, actor: ExploreActor): Owned[] => k.ownedOf(kind, actor.name);

/** A wrong-on-purpose edit or removal of a thing that does not exist: HTTP 404 (spec §7 and the document). */
function missing(what: string, pathParams: Record<string, StepValue>, params: Record<string, StepValue>, code = 'BAD_REQUEST'): Plan {
  return { pathParams, params, expect: 'success', invalid: { what: `a ${what} that does not exist`, status: 404, code } };
}

/* ------------------------------------------------------------------ drafts (spec §2.6, §4.6) */

const DRAFTS = { path: '/api/v1/drafts', field: 'drafts', id: 'id' };

function draftOf(k: Knowledge, actor: ExploreActor, a: number, content: string): Record<string, StepValue> {
  const channel = pick(liveChannelsOf(actor, k), a);
  if (channel && a % 2 === 0) return { type: 'stream', to: [ref(channel.key)], topic: 'draft', content };
  return { type: '', to: [], topic: '', content };
}

export const createDraft: Template = {
  name: 'create-draft',
  operation: 'create-drafts',
  weight: 2,
  plan({ k, actor, choice, n }) {
    return { params: { drafts: [draftOf(k, actor, choice.a, `explore ${n}: a draft`)] }, expect: 'success', binds: 'd' };
  },
  learn({ k, step, bound, actor }) {
    const draft = (step.params.drafts as Record<string, StepValue>[])[0]!;
    k.own({
      key: bound!,
      kind: 'draft',
      owner: actor.name,
      data: draft,
      undo: { method: 'DELETE', path: `/api/v1/drafts/${k.idOf(bound!)}`, params: {} },
    });
  },
  verify: (v) => verifyListed(v, DRAFTS, v.bound!, { content: (v.step.params.drafts as Row[])[0]!.content as string }),
};

export const editDraft: Template = {
  name: 'edit-draft',
  operation: 'edit-draft',
  weight: 1,
  valid: stillOwned('draft'),
  plan({ k, actor, choice, n }) {
    const draft = { type: '', to: [], topic: '', content: `explore ${n}: edited` };
    if (choice.invalid) return missing('draft', { draft_id: NO_SUCH_ID }, { draft });
    const d = pick(mine(k, 'draft', actor), choice.b, choice.focus);
    if (!d) return null;
    return {
      pathParams: { draft_id: ref(d.key) },
      params: { draft: draftOf(k, actor, choice.a, String(draft.content)) },
      expect: 'success',
    };
  },
  learn({ k, step, actor }) {
    const d = k.ownedOf('draft', actor.name).find((o) => o.key === pathKey(step));
    if (d) d.data = step.params.draft as Record<string, StepValue>;
  },
  verify: (v) => verifyListed(v, DRAFTS, pathKey(v.step), { content: (v.step.params.draft as Row).content as string }),
};

export const deleteDraft: Template = {
  name: 'delete-draft',
  operation: 'delete-draft',
  weight: 1,
  valid: stillOwned('draft'),
  plan({ k, actor, choice }) {
    if (choice.invalid) return missing('draft', { draft_id: NO_SUCH_ID }, {});
    const d = pick(mine(k, 'draft', actor), choice.b, choice.focus);
    return d ? { pathParams: { draft_id: ref(d.key) }, params: {}, expect: 'success' } : null;
  },
  learn: ({ k, step }) => k.disown(pathKey(step)),
  verify: (v) => verifyListed(v, DRAFTS, pathKey(v.step), null),
};

/* ------------------------------------------------------------------ saved snippets (spec §2.10, §4.14) */

const SNIPPETS = { path: '/api/v1/saved_snippets', field: 'saved_snippets', id: 'id' };

export const createSnippet: Template = {
  name: 'create-saved-snippet',
  operation: 'create-saved-snippet',
  weight: 1,
  plan: ({ n }) => ({ params: { title: `explore ${n}`, content: `snippet ${n}` }, expect: 'success', binds: 's' }),
  bind: (reply) => reply.body.saved_snippet_id,
  learn({ k, step, bound, actor }) {
    k.own({
      key: bound!,
      kind: 'snippet',
      owner: actor.name,
      data: step.params,
      undo: { method: 'DELETE', path: `/api/v1/saved_snippets/${k.idOf(bound!)}`, params: {} },
    });
  },
  verify: (v) => verifyListed(v, SNIPPETS, v.bound!, v.step.params),
};

export const editSnippet: Template = {
  name: 'edit-saved-snippet',
  operation: 'edit-saved-snippet',
  weight: 1,
  valid: stillOwned('snippet'),
  plan({ k, actor, choice, n }) {
    if (choice.invalid) return missing('saved snippet', { saved_snippet_id: NO_SUCH_ID }, { title: `explore ${n}` });
    const s = pick(mine(k, 'snippet', actor), choice.b, choice.focus);
    if (!s) return null;
    return {
      pathParams: { saved_snippet_id: ref(s.key) },
      params: choice.flag ? { title: `edited ${n}` } : { content: `edited ${n}` },
      expect: 'success',
    };
  },
  verify: (v) => verifyListed(v, SNIPPETS, pathKey(v.step), v.step.params),
};

export const deleteSnippet: Template = {
  name: 'delete-saved-snippet',
  operation: 'delete-saved-snippet',
  weight: 1,
  valid: stillOwned('snippet'),
  plan({ k, actor, choice }) {
    if (choice.invalid) return missing('saved snippet', { saved_snippet_id: NO_SUCH_ID }, {});
    const s = pick(mine(k, 'snippet', actor), choice.b, choice.focus);
    return s ? { pathParams: { saved_snippet_id: ref(s.key) }, params: {}, expect: 'success' } : null;
  },
  learn: ({ k, step }) => k.disown(pathKey(step)),
  verify: (v) => verifyListed(v, SNIPPETS, pathKey(v.step), null),
};

/* ------------------------------------------------------------------ navigation views (spec §2.9, §4.12) */

const VIEWS = { path: '/api/v1/navigation_views', field: 'navigation_views', id: 'fragment' };
const fragmentOf = (step: { path: string }) => decodeURIComponent(step.path.slice(step.path.lastIndexOf('/') + 1));

export const addView: Template = {
  name: 'add-navigation-view',
  operation: 'add-navigation-view',
  weight: 1,
  plan: ({ k, choice, n }) => ({
    params: { fragment: `${k.token}-v${n}`, is_pinned: choice.flag, name: `${k.token} ${n}` },
    expect: 'success',
  }),
  learn({ k, step, actor }) {
    const fragment = String(step.params.fragment);
    k.own({
      key: fragment,
      kind: 'view',
      owner: actor.name,
      data: step.params,
      undo: { method: 'DELETE', path: `/api/v1/navigation_views/${fragment}`, params: {} },
    });
  },
  verify: (v) => verifyListed(v, VIEWS, String(v.step.params.fragment), v.step.params),
};

export const editView: Template = {
  name: 'edit-navigation-view',
  operation: 'edit-navigation-view',
  weight: 1,
  valid: (c, step) => stillOwned('view', fragmentOf)(c, step),
  plan({ k, actor, choice, n }) {
    if (choice.invalid) return missing('navigation view', { fragment: `${k.token}-none` }, { is_pinned: true }, 'NOT_FOUND');
    const view = pick(mine(k, 'view', actor), choice.b, choice.focus);
    if (!view) return null;
    return {
      pathParams: { fragment: view.key },
      params: choice.flag ? { is_pinned: !view.data.is_pinned } : { name: `${k.token} ${n} edited` },
      expect: 'success',
    };
  },
  learn({ k, step, actor }) {
    const view = k.ownedOf('view', actor.name).find((o) => o.key === fragmentOf(step));
    if (view) view.data = { ...view.data, ...step.params };
  },
  verify: (v) => verifyListed(v, VIEWS, fragmentOf(v.step), v.step.params),
};

export const removeView: Template = {
  name: 'remove-navigation-view',
  operation: 'remove-navigation-view',
  weight: 1,
  valid: (c, step) => stillOwned('view', fragmentOf)(c, step),
  plan({ k, actor, choice }) {
    if (choice.invalid) return missing('navigation view', { fragment: `${k.token}-none` }, {}, 'NOT_FOUND');
    const view = pick(mine(k, 'view', actor), choice.b, choice.focus);
    return view ? { pathParams: { fragment: view.key }, params: {}, expect: 'success' } : null;
  },
  learn: ({ k, step }) => k.disown(fragmentOf(step)),
  verify: (v) => verifyListed(v, VIEWS, fragmentOf(v.step), null),
};

/* ------------------------------------------------------------------ status (spec §2.7, §4.5) */

export const updateStatus: Template = {
  name: 'update-status',
  operation: 'update-status',
  weight: 1,
  plan({ choice, n }) {
    if (choice.invalid)
      return {
        params: { status_text: `explore ${n} `.padEnd(61, 'x') },
        expect: 'success',
        invalid: { what: 'a status text longer than 60 characters', status: 400, code: 'BAD_REQUEST' },
      };
    return { params: { status_text: `explore ${n}`, ...(choice.flag ? { emoji_name: 'smile' } : {}) }, expect: 'success' };
  },
  learn({ k, actor }) {
    // The status the actor had when the sequence began comes back at teardown.
    const was = ((actor.state.user_status ?? {}) as Record<string, Row>)[String(actor.userId)] ?? {};
    const emoji =
      typeof was.emoji_name === 'string' && was.emoji_name !== ''
        ? { emoji_name: was.emoji_name, emoji_code: was.emoji_code, reaction_type: was.reaction_type }
        : { emoji_name: '' };
    k.own({
      key: `status:${actor.name}`,
      kind: 'status',
      owner: actor.name,
      data: {},
      undo: { method: 'POST', path: '/api/v1/users/me/status', params: { status_text: String(was.status_text ?? ''), ...emoji } },
    });
  },
  verify({ step, actor, actors, fail }) {
    for (const a of actors) {
      const status = ((a.state.user_status ?? {}) as Record<string, Row>)[String(actor.userId)];
      if (status?.status_text !== step.params.status_text)
        fail(
          `${actor.name} set its status to "${String(step.params.status_text)}", ${a.name}'s register reads ${JSON.stringify(status)}`,
          a.name,
        );
    }
    return Promise.resolve();
  },
};

export const PERSONAL_TEMPLATES: Template[] = [
  createDraft,
  editDraft,
  deleteDraft,
  createSnippet,
  editSnippet,
  deleteSnippet,
  addView,
  editView,
  removeView,
  updateStatus,
];
