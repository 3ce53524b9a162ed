import type { ResponseSchemas } from '../openapi.js';
import type { World } from '../world.js';
import type { OperationIndex } from './document.js';
import type { Template } from './operations/template.js';
import type { ExploreRule } from './types.js';

/** What every sequence of a run shares: the target, its world, the document, the tally of oracle checks. */
export interface SequenceEnv {
  baseUrl: string;
  world: World;
  featureLevel: number | null;
  ops: OperationIndex;
  schemas: ResponseSchemas;
  templates: readonly Template[];
  users: number;
  /** Names the sequence's channels: unique across runs and sequences. */
  prefix: string;
  /** Counts each oracle rule every time it was checked and held. */
  tally(rule: ExploreRule, n?: number): void;
}
