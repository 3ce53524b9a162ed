import type { Reply } from '../src/client.js';
import type { ScenarioContext } from '../src/context.js';
import { levelOf, type FeatureName } from '../src/openapi.js';
import type { Obj } from './shared.js';

/**
 * Fields of the channel object (spec §2.2, §2.3) that the reference server added at a feature level, by the
 * name of that level in openapi/feature-levels.json: the `x-feature-level` marks of the Channel schema in
 * openapi/team-chat.openapi.yaml (conformance/test/level-fields.test.ts keeps the two equal). A server
 * announcing an older level does not send them, so a scenario checks them only where the level has them.
 */
export const CHANNEL_FIELD_LEVELS = {
  is_archived: 'archived_channels',
  creator_id: 'channel_creator_id_field',
  topics_policy: 'channel_topics_policy_field',
  folder_id: 'channel_folders',
  is_recently_active: 'channel_is_recently_active_field',
  subscriber_count: 'channel_subscriber_count_field',
  can_add_subscribers_group: 'channel_can_add_subscribers_group_field',
  can_remove_subscribers_group: 'channel_can_remove_subscribers_group_field',
  can_administer_channel_group: 'channel_can_administer_channel_group_field',
  can_delete_any_message_group: 'channel_delete_permission_groups',
  can_delete_own_message_group: 'channel_delete_permission_groups',
  can_move_messages_out_of_channel_group: 'channel_move_messages_groups',
  can_move_messages_within_channel_group: 'channel_move_messages_groups',
  can_send_message_group: 'can_send_message_group',
  can_subscribe_group: 'channel_can_subscribe_group_field',
  can_resolve_topics_group: 'channel_can_resolve_topics_group_field',
} as const satisfies Record<string, FeatureName>;

export type LevelChannelField = keyof typeof CHANNEL_FIELD_LEVELS;

/** Whether a channel object at the scenario's level carries `field` (fields without a mark: always). */
export function channelHas(ctx: ScenarioContext, field: string): boolean {
  const feature = (CHANNEL_FIELD_LEVELS as Record<string, FeatureName>)[field];
  return feature === undefined || ctx.has(feature);
}

/** The fields of `fields` a channel object carries at the scenario's level. */
export function channelFieldsAt<T extends string>(ctx: ScenarioContext, fields: readonly T[]): T[] {
  return fields.filter((f) => channelHas(ctx, f));
}

/**
 * Below the level that added `field` (a reference fact: a server that old does not know it), none of the
 * `objects` carries it. Made only below that level; returns whether it applied.
 */
export function expectAbsentBelow(
  ctx: ScenarioContext,
  rule: string,
  feature: FeatureName,
  field: string,
  objects: readonly Obj[],
  what: string,
  reply?: Reply,
): boolean {
  if (ctx.has(feature)) return false;
  const level = levelOf(feature);
  const carrying = objects.filter((o) => field in o).length;
  ctx.check(rule, carrying === 0, `below level ${level} (${feature}), ${what} carrying ${field}: ${carrying} of ${objects.length}`, reply, {
    reference: { level },
  });
  return true;
}

/** `expectAbsentBelow` for every channel field of `fields` the scenario's level lacks. */
export function expectChannelFieldsAbsent(
  ctx: ScenarioContext,
  rule: string,
  fields: readonly string[],
  objects: readonly Obj[],
  what: string,
  reply?: Reply,
): void {
  for (const f of fields) {
    const feature = (CHANNEL_FIELD_LEVELS as Record<string, FeatureName>)[f];
    if (feature !== undefined) expectAbsentBelow(ctx, rule, feature, f, objects, what, reply);
  }
}
