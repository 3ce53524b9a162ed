import { isDeepStrictEqual } from 'node:util';
import { SetupError, type ScenarioContext } from '../../src/context.js';

/**
 * Helpers of the coverage scenarios: group-setting values (spec §1 "Group-setting value": an integer or
 * an object with direct_members and direct_subgroups) and reading a channel back through the API.
 */

export type Group = number | { direct_members: number[]; direct_subgroups: number[] };

/** A system group of the world file; a world without it cannot say what the scenario claims. */
export function systemGroup(ctx: ScenarioContext, name: keyof ScenarioContext['world']['user_groups']['system']): number {
  const id = ctx.world.user_groups.system[name];
  if (id === undefined) throw new SetupError(`world file: user_groups.system has no ${name}`);
  return id;
}

/**
 * The holders a group-setting value names, in one comparable form: either form of §1 may come back
 * (an anonymous group holding one subgroup and no member is that subgroup).
 */
function holders(value: unknown): { members: number[]; subgroups: number[] } | null {
  if (typeof value === 'number') return { members: [], subgroups: [value] };
  if (value === null || typeof value !== 'object') return null;
  const v = value as { direct_members?: unknown; direct_subgroups?: unknown };
  if (!Array.isArray(v.direct_members) || !Array.isArray(v.direct_subgroups)) return null;
  const sorted = (xs: unknown[]) => [...new Set(xs as number[])].sort((a, b) => a - b);
  return { members: sorted(v.direct_members), subgroups: sorted(v.direct_subgroups) };
}

/** Two group-setting values name the same holders (compared as sets). */
export const sameGroup = (a: unknown, b: Group): boolean => {
  const x = holders(a);
  return x !== null && isDeepStrictEqual(x, holders(b));
};

export { readChannel, snapshotOf } from '../shared.js';
