import type { Reply } from './client.js';
import type { Tier } from './model.js';
import type { ScenarioContext } from './context.js';
import type { FeatureName } from './openapi.js';
import type { WorldChannelKind, WorldRole } from './world.js';

/** What a scenario needs from its target; anything missing makes it a skip with the reason. */
export interface Requirements {
  /** Roles of the world file it acts as. */
  roles?: WorldRole[];
  /** Channel kinds of the world file it uses. */
  channels?: WorldChannelKind[];
  /** The mock's control API (realm clocks). Real servers: skipped, or run in real time under --slow. */
  control?: boolean;
  /** The behaviour of one side of a §9 level boundary: `from` a level, or `below` it. */
  level?: { from: FeatureName } | { below: FeatureName };
  /** Roles whose password the world file must know (fetch_api_key). */
  passwords?: WorldRole[];
}

/**
 * One behaviour, readable as given / when / then (conformance/README.md). `given` builds preconditions
 * through the API only; a failure there is an `error` (could not set up), never a `failed`. `when`
 * makes the call under test; `then` states the expectations with `ctx.check`, `ctx.expectError`,
 * `ctx.expectSuccess`. Every exchange also gets the ambient checks (envelope, response schema,
 * error extras).
 */
export interface Scenario<G = unknown, W = Reply> {
  /** Unique, stable: `area/behaviour`. */
  id: string;
  title: string;
  /** Rule IDs of conformance/rules/catalogue.json that this scenario checks. */
  rules: string[];
  tags?: string[];
  /** Absent: `spec`. Set for the companion folder's scenarios by scenarios/index.ts, not by each scenario. */
  tier?: Tier;
  requires?: Requirements;
  /** Changes that cannot be undone (deactivating users, changing roles): only with --allow-destructive on real servers. */
  destructive?: boolean;
  /**
   * Runs in a realm of its own when the target is the mock (it changes realm-wide settings). Destructive
   * and clock-moving scenarios always do; scenarios that need only a feature level share one realm per
   * level, so they must not change realm-wide state either (mark them isolated if they do).
   */
  isolated?: boolean;
  /**
   * Changes a fixture of the world that other scenarios read (a world channel's settings, who is subscribed
   * to it) and puts it back: it runs alone, never beside another scenario, and the runner checks that the
   * fixtures are as before afterwards (restoring what it left, else an error). Against a target without the
   * control API, `isolated` and `destructive` scenarios are treated the same way.
   */
  serial?: boolean;
  /** Waits in real time (minutes): only with --slow. */
  slow?: boolean;
  given?(ctx: ScenarioContext): Promise<G> | G;
  when(ctx: ScenarioContext, given: G): Promise<W> | W;
  then(ctx: ScenarioContext, result: W, given: G): Promise<void> | void;
}

export function scenario<G = undefined, W = Reply>(def: Scenario<G, W>): Scenario<G, W> {
  return def;
}

/**
 * Table-driven scenarios (a rule that is a matrix): one scenario per row, its ID and title from the row.
 */
export function scenarios<Row, G = undefined, W = Reply>(rows: readonly Row[], make: (row: Row) => Scenario<G, W>): Scenario<G, W>[] {
  return rows.map(make);
}

/**
 * The area of a scenario: the first segment of its ID, or for the companion tier's `companion/<area>/…`
 * the first two, so that reports group companion scenarios by their area as they do the spec's.
 */
export const areaOf = (id: string): string => {
  const [first = id, second] = id.split('/');
  return first === 'companion' && second !== undefined && id.split('/').length > 2 ? `${first}/${second}` : first;
};

/** The tier of a scenario (absent: `spec`). */
export const tierOf = (s: { tier?: Tier }): Tier => s.tier ?? 'spec';
