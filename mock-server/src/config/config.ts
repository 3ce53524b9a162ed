import type { ClockMode } from '../clock/clock.js';

/** Everything `teamchat serve` and `createMockServer` can be told (README "CLI"). */
export interface ServerConfig {
  port: number;
  host: string;
  /** lowdb JSON file; null keeps the state in memory only. */
  statePath: string | null;
  /** Fixture of the default realm: `demo` (generated) or a path to an exported realm JSON file. */
  fixture: string;
  seed: number;
  /** Feature level of the default realm; absent: as stored, or the newest for a new realm. */
  featureLevel?: number;
  /** The realm that anonymous requests and `npm start` use. */
  defaultRealm: string;
  /** Serve the control API under /__mock/. */
  control: boolean;
  clock: ClockMode;
  /** Start time of a frozen clock (UNIX seconds); the machine's time when absent. */
  clockStart?: number;
  /**
   * Where new realms start (UNIX seconds) unless POST /__mock/realms names an `epoch`: with a frozen
   * clock, realms whose answers are byte-identical run after run. Absent: realms start at the current
   * time and follow the wall clock (a realm export at its recorded time).
   */
  epoch?: number;
  /** Regenerate the default realm from its fixture at start-up, even if the state file holds it. */
  reset: boolean;
  openapiPath?: string;
  /** 'fsync' (default) or 'write': what "durable" waits for. */
  durability: 'fsync' | 'write';
}

export const DEFAULT_CONFIG: ServerConfig = {
  port: 9991,
  host: '127.0.0.1',
  statePath: '.teamchat/state.json',
  fixture: 'demo',
  seed: 42,
  defaultRealm: 'demo',
  control: true,
  clock: 'system',
  reset: false,
  durability: 'fsync',
};
