import type { OperationFacts } from '../document.js';
import type { Choice, Plan, Template } from './template.js';

/**
 * Generic wrong-on-purpose variants, drawn from the document's parameters: a step valid for the state
 * with one required parameter left out (400 REQUEST_VARIABLE_MISSING, the document's answer and the
 * reference's) or one integer parameter sent as text (400 BAD_REQUEST, spec §7 "invalid input").
 * Only a plan the actor is allowed to make is broken: a permission refused before the parameters are
 * read (an administrator-only operation) would answer otherwise.
 */
export function breakParameter(plan: Plan, facts: OperationFacts, choice: Pick<Choice, 'c'>): Plan {
  const sent = facts.params.filter((p) => p.in !== 'path' && plan.params[p.name] !== undefined);
  const ways = [
    ...sent.filter((p) => p.required).map((p) => ({ name: p.name, missing: true })),
    ...sent.filter((p) => p.type === 'integer').map((p) => ({ name: p.name, missing: false })),
  ];
  const way = ways[choice.c % Math.max(ways.length, 1)];
  if (!way) return plan;
  const params = { ...plan.params };
  if (way.missing) {
    delete params[way.name];
    return { ...plan, params, invalid: { what: `no ${way.name}`, status: 400, code: 'REQUEST_VARIABLE_MISSING' } };
  }
  params[way.name] = 'ten';
  return { ...plan, params, invalid: { what: `${way.name} as text, not an integer`, status: 400, code: 'BAD_REQUEST' } };
}

/** The template, with the generic variants for draws of the wrong-on-purpose kind it has none of its own for. */
export function withInvalid(t: Template): Template {
  return {
    ...t,
    plan(ctx, facts) {
      const plan = t.plan(ctx, facts);
      if (!ctx.choice.invalid || !plan || plan.invalid || plan.expect !== 'success') return plan;
      const broken = breakParameter(plan, facts, ctx.choice);
      // A broken step makes nothing.
      const { binds: _binds, ...rest } = broken;
      return broken.invalid ? rest : broken;
    },
  };
}
