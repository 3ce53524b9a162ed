import { tierOf, type Scenario } from './dsl.js';
import type { RuleDef } from './model.js';
import { tierName, type ResolvedChoices } from './options.js';
import { selectScenarios } from './runner.js';

type AnyScenario = Scenario<any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The selected scenarios and the rules a run's coverage table shows, plus warnings worth printing. */
export interface Selection<S extends AnyScenario> {
  scenarios: S[];
  catalogue: RuleDef[];
  warnings: string[];
}

/**
 * Picks the scenarios (tiers, grep, tags, rules) and the rules to show: those of the tiers run, and any rule
 * of another tier a selected scenario checks (companion scenarios cover spec rules no spec operation reaches,
 * e.g. R2.5-8 by an edit). Throws when a `rules` prefix matches no rule, or nothing is selected.
 */
export function selectRun<S extends AnyScenario>(all: readonly S[], every: readonly RuleDef[], c: ResolvedChoices): Selection<S> {
  const matchesRule = (prefix: string, id: string) => id === prefix || id.startsWith(`${prefix}-`) || id.startsWith(`${prefix}.`);
  const unknownRules = c.rules.filter((p) => !every.some((r) => matchesRule(p, r.id)));
  if (unknownRules.length > 0) throw new Error(`--rules: no rule of the catalogue matches ${unknownRules.join(', ')}`);
  const known = new Set(every.map((r) => r.id));
  // A scenario naming a rule the catalogue lacks would never count towards coverage: say so, but run.
  const strays = [...new Set(all.flatMap((s) => s.rules.filter((r) => !known.has(r))))];
  const warnings = strays.length > 0 ? [`scenarios name rules missing from the catalogue: ${strays.join(', ')}`] : [];
  const scenarios = selectScenarios(all, { ...(c.grep ? { grep: c.grep } : {}), tags: c.tags, rules: c.rules, tiers: c.tiers });
  if (scenarios.length === 0) {
    const inTier = all.filter((s) => c.tiers.includes(tierOf(s))).length;
    const counts =
      inTier === all.length ? `${all.length} scenarios in all` : `${inTier} scenarios in --tier ${tierName(c.tiers)}, ${all.length} in all`;
    throw new Error(`no scenario matches the filters (${counts})`);
  }
  const named = new Set(scenarios.flatMap((s) => s.rules));
  const catalogue = every.filter((r) => c.tiers.includes(r.tier ?? 'spec') || named.has(r.id));
  return { scenarios, catalogue, warnings };
}
