import levels from '../../../openapi/feature-levels.json' with { type: 'json' };

/**
 * The only place where feature levels are compared (ARCHITECTURE.md §1.6). Behaviour asks by name:
 * `features(realm.feature_level).has('empty_topic_name')`. The names and levels are contract data
 * (spec §9) kept in openapi/feature-levels.json, which the conformance suite reads too.
 */
export type FeatureName = keyof typeof levels.levels;

/** The newest level this server implements: the default for new realms. */
export const CURRENT_FEATURE_LEVEL: number = levels.current;

/** The lowest level a realm may emulate. The Python client needs 176+ to send modern linkifier fields. */
export const MIN_FEATURE_LEVEL = 1;

export function levelOf(name: FeatureName): number {
  return levels.levels[name].level;
}

export interface Features {
  readonly level: number;
  has(name: FeatureName): boolean;
}

export function features(level: number): Features {
  return { level, has: (name) => level >= levelOf(name) };
}
