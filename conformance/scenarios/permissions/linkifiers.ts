import type { ScenarioContext } from '../../src/context.js';
import { scenario, scenarios } from '../../src/dsl.js';
import type { WorldRole } from '../../src/world.js';

/**
 * Spec §4.18 "Add a linkifier" says nothing about who may add one, and §5's list of administrator-only
 * operations is not exhaustive ("where shown"). The reference server allows organization
 * administrators only (server-behaviour.md C19), refused like the spec's other permission refusals
 * (§7 BAD_REQUEST, "insufficient permission"). Tagged `reference`: only code and status are asserted, as
 * reference checks (a failure is a warning unless the run is --strict-reference).
 * Patterns are unique to the run, so they match nothing else; what a wrong server accepts is removed.
 */

const linkifier = (ctx: ScenarioContext) => {
  const tag = ctx.unique('lnk').replace(/[^A-Za-z0-9]+/g, '');
  return { pattern: `${tag}-(?P<id>[0-9]+)`, url_template: `https://tracker.example.com/${tag}/{id}` };
};

const removeIfCreated = (ctx: ScenarioContext, id: unknown) => {
  if (typeof id === 'number') ctx.defer(() => ctx.as('administrator').delete(`/api/v1/realm/filters/${id}`));
};

const refused = scenarios(['moderator', 'member', 'guest', 'bot'] as const satisfies readonly WorldRole[], (role) =>
  scenario({
    id: `permissions/linkifier-refused-${role}`,
    title: `a ${role} may not add a linkifier (reference server: administrators only)`,
    rules: ['R7-3', 'R7-7'],
    tags: ['reference'],
    requires: { roles: [role, 'administrator'] },
    given: (ctx) => linkifier(ctx),
    when: (ctx, body) => ctx.as(role).post('/api/v1/realm/filters', body),
    then(ctx, res) {
      removeIfCreated(ctx, res.body.id);
      // That the role is refused at all is the reference's rule (the spec names no permission here).
      ctx.expectError('R7-3', res, { status: 400, code: 'BAD_REQUEST', reference: { operation: 'add-linkifier' } });
      ctx.check('R7-7', res.status === 400, `BAD_REQUEST with HTTP ${res.status}`, res, { reference: { operation: 'add-linkifier' } });
    },
  }),
);

const allowed = scenarios(['administrator'] as const satisfies readonly WorldRole[], (role) =>
  scenario({
    id: `permissions/linkifier-by-${role}`,
    title: `an organization ${role} adds a linkifier`,
    rules: ['R4.18-1', 'R4.18-2'],
    tags: ['reference'],
    requires: { roles: [role] },
    // The realm's linkifiers change (and realm_linkifiers events go out): a realm of its own on the mock.
    isolated: true,
    given: (ctx) => linkifier(ctx),
    when: (ctx, body) => ctx.as(role).post('/api/v1/realm/filters', body),
    then(ctx, res) {
      removeIfCreated(ctx, res.body.id);
      ctx.expectSuccess('R4.18-1', res);
      ctx.check('R4.18-2', Number.isInteger(res.body.id), `id ${JSON.stringify(res.body.id)} is an integer`, res);
    },
  }),
);

export default [...refused, ...allowed];
