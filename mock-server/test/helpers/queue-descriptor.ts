import { clientView } from '../../src/contract/client-view.js';
import type { QueueDescriptor } from '../../src/events/queue.js';

/** A queue registered with no options (every event type, no narrow, no capabilities), with `overrides`. */
export const queueDescriptor = (overrides: Partial<QueueDescriptor> = {}): QueueDescriptor => ({
  eventTypes: null,
  narrow: [],
  allPublicStreams: false,
  client: clientView({}),
  applyMarkdown: false,
  clientGravatar: false,
  ...overrides,
});
