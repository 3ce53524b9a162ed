import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest (tens of seconds each: whole conformance runs, soak cycles, spawned and compiled
 * programs), started first so that they run beside the many short files instead of alone at the end. Vitest does
 * this by itself once it has timings (node_modules/.vite); a fresh clone has none, so the list says it. Longest
 * first.
 */
const LONG = [
  'mock-server/test/conformance/no-control.test.ts',
  'cli/test/compiled.test.ts',
  'mock-server/test/events/invariant.test.ts',
  'mock-server/test/conformance/self-test.test.ts',
  'mock-server/test/soak/linkifier-cycles.test.ts',
  'conformance/test/stub-target.test.ts',
  'mock-server/test/http/durability.test.ts',
  'mock-server/test/store/kill.test.ts',
  'mock-server/test/http/garbage.test.ts',
  'mock-server/test/hostile/wire-fuzz.test.ts',
  'cli/test/teamchat.test.ts',
  'mock-server/test/markdown/pattern-lifetime.test.ts',
  'mock-server/test/hostile/proxy.test.ts',
  'mock-server/test/http/control-epoch.test.ts',
  'mock-server/test/hostile/server.test.ts',
];

const rank = (spec: TestSpecification) => {
  const at = LONG.findIndex((path) => spec.moduleId.endsWith(`/${path}`));
  return at === -1 ? LONG.length : at;
};

export default class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: the rest keep vitest's own order (failed, then longest, then largest first).
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
