import type { EmittedEvent, StoredMessage } from '../contract/event-types.js';
import type { RealmState } from '../store/state.js';
import type { QueueDescriptor } from './queue.js';

/** An injected message event (control API) may lack any field: every one is read as possibly absent. */
type Message = Partial<StoredMessage>;

/**
 * Whether a queue takes an event (spec §6.6): its event_types, then its narrow, which filters only
 * message events. Heartbeats always pass.
 */
export function accepts(descriptor: QueueDescriptor, event: EmittedEvent, tables: RealmState | undefined): boolean {
  if (event.type === 'heartbeat') return true;
  if (descriptor.eventTypes && !descriptor.eventTypes.has(event.type)) return false;
  if (event.type !== 'message' || descriptor.narrow.length === 0) return true;
  const message: Message = event.message ?? {};
  const flags = event.flags ?? [];
  return descriptor.narrow.every(([operator, operand]) => matches(operator, operand, message, flags, tables));
}

/** The narrow operators a queue can filter on (the reference server's build_narrow_filter subset). */
function matches(operator: string, operand: string, message: Message, flags: string[], tables: RealmState | undefined): boolean {
  const isChannel = message.type === 'stream';
  switch (operator) {
    case 'channel':
    case 'stream': {
      if (!isChannel) return false;
      const name = tables?.channels[String(message.stream_id)]?.name ?? message.display_recipient;
      return String(name).toLowerCase() === operand.toLowerCase() || String(message.stream_id) === operand;
    }
    case 'topic':
      return isChannel && String(message.subject ?? '').toLowerCase() === operand.toLowerCase();
    case 'sender':
      return String(message.sender_email ?? '').toLowerCase() === operand.toLowerCase();
    case 'is':
      if (operand === 'dm' || operand === 'private') return message.type === 'private';
      if (operand === 'mentioned') return flags.includes('mentioned') || flags.includes('wildcard_mentioned');
      if (operand === 'starred') return flags.includes('starred');
      return true;
    case 'dm':
    case 'pm-with': {
      if (message.type !== 'private') return false;
      const wanted = operand.split(',').map((e) => e.trim().toLowerCase());
      const recipients = message.display_recipient ?? [];
      const emails = typeof recipients === 'string' ? [] : recipients.map((u) => u.email.toLowerCase());
      return wanted.every((e) => emails.includes(e));
    }
    default:
      // Operators that cannot be decided from one event (search, has, …) do not filter.
      return true;
  }
}
