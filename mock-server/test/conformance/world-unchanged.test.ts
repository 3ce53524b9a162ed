import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRules } from '../../../conformance/src/catalogue.js';
import { ResponseSchemas } from '../../../conformance/src/openapi.js';
import { runScenarios } from '../../../conformance/src/runner.js';
import { Target } from '../../../conformance/src/target.js';
import { SCENARIOS } from '../../../conformance/scenarios/index.js';
import type { MockServer } from '../../src/app.js';
import { startTestServer } from '../helpers/test-server.js';
import { knownUsers, readWorldState, withoutUsersBeyond, worldChanges } from './world-state.js';

/**
 * Every scenario, destructive or not, leaves the world as it found it: the whole suite (both tiers, destructive
 * scenarios included) against the mock without its control API, as against a real server, and the world read
 * through the API by every user of the world file before and after (world-state.ts: realm settings, users and
 * their profile data, groups, channels, subscriptions and their settings, statuses, user settings, drafts,
 * snippets, views, scheduled messages, reminders, alert words, topic policies, stars, linkifiers, emoji). What
 * the suite makes and cannot delete may remain, as long as it is out of the way: users it made deactivated, its
 * channels archived, its messages sent. The run takes about 25 s (10 s of CPU) on an idle machine, so it is the whole suite, not only the destructive scenarios.
 */
let server: MockServer;
beforeAll(async () => {
  // The running clock of a real server: scheduled times are relative to the target's own now.
  server = await startTestServer({ control: false, clock: 'system' });
});
afterAll(() => server.close());

describe('a whole --allow-destructive run against the mock without its control API', () => {
  it('leaves the world as it found it', async () => {
    const target = await Target.connect(server.url);
    expect(target.control).toBe(false);
    const before = await readWorldState(target.baseUrl, target.world);
    const run = await runScenarios({
      target,
      scenarios: SCENARIOS,
      catalogue: await loadRules(),
      schemas: await ResponseSchemas.load(),
      workers: 4,
      slow: false,
      allowDestructive: true,
      tiers: ['spec', 'companion'],
    });
    expect(run.scenarios.filter((s) => s.status === 'failed' || s.status === 'error').map((s) => `${s.id}: ${s.reason ?? ''}`)).toEqual([]);
    expect(run.scenarios.filter((s) => s.status === 'passed').length).toBeGreaterThan(400);

    const after = await readWorldState(target.baseUrl, target.world);
    const known = knownUsers(before);
    const { changed, added } = worldChanges(before, withoutUsersBeyond(after, known));
    expect(changed).toEqual([]);
    // Only users the suite made, each deactivated (every reader lists it among the inactive; its profile data).
    const unexpected = added.filter((path) => !/^(\w+\.realm_non_active_users|profile_data)\.\d+$/.test(path));
    expect(unexpected).toEqual([]);
  }, 240_000);
});
