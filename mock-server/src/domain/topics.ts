import type { ClientView } from '../events/client-view.js';

/**
 * Topic rules of spec §1 and §3, in one module. This first part is what presentation needs: clients
 * that do not declare empty-topic support see the realm's display name instead of "" (§1, §4.21).
 * The input rules (what a topic parameter means, what topics_policy accepts) join it with the
 * channels issue.
 */
export const EMPTY_TOPIC_DISPLAY_NAME = 'general chat';

export function presentTopic(topic: string, client: Pick<ClientView, 'empty_topic_name'>): string {
  return topic === '' && !client.empty_topic_name ? EMPTY_TOPIC_DISPLAY_NAME : topic;
}
