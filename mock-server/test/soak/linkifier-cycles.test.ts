import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOutcome, emptyOutcome, linkifierCycle } from '../../../bench/soak-ops.js';
import type { MockServer } from '../../src/app.js';
import { wrappedSource } from '../../src/domain/markdown/linkifier-patterns.js';
import { call, credentials, startTestServer } from '../helpers/test-server.js';

/**
 * The soak benchmark's linkifier cycle, short: linkifiers created, rendered, changed, rendered, deleted and
 * rendered again in one process. Each has a pattern of its own, so each compiles a new program; before the fix
 * re2-wasm's fixed heap was full from about the 26th cycle and renders answered 500. Past that point, and every
 * compiled program is counted: when the cycles end, none of theirs is left alive, so a program that is never
 * freed fails the test at once rather than only when the leak has filled the heap (the bench's soak runs as
 * many cycles as it is given).
 */
const CYCLES = 60;

interface WrappedRE2 {
  pattern(): string;
  delete(): void;
}
type WrappedClass = (new (...args: unknown[]) => WrappedRE2) & { prototype: WrappedRE2 };
/** The engine module as mock-server/src/domain/markdown/re2-engine.ts loads it (one instance per process). */
const engine = createRequire(import.meta.url)('re2-wasm/build/wasm/re2.js') as { WrappedRE2: WrappedClass };

/** The programs compiled while the test runs and not yet freed: the engine's class, counting. */
const alive = new Set<WrappedRE2>();
const Compiled = engine.WrappedRE2;
const freeProgram = Object.getOwnPropertyDescriptor(Compiled.prototype, 'delete');
function Counting(...args: unknown[]): WrappedRE2 {
  const program = new Compiled(...args);
  alive.add(program);
  return program;
}

let server: MockServer;
beforeAll(async () => {
  engine.WrappedRE2 = Counting as unknown as WrappedClass;
  const inherited = Compiled.prototype.delete;
  Compiled.prototype.delete = function (this: WrappedRE2) {
    alive.delete(this);
    inherited.call(this);
  };
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
  engine.WrappedRE2 = Compiled;
  if (freeProgram) Object.defineProperty(Compiled.prototype, 'delete', freeProgram);
  else delete (Compiled.prototype as Partial<WrappedRE2>).delete;
});

describe('linkifier cycles in one process', () => {
  it(
    `links in every render of ${CYCLES} create/update/delete cycles, without a 5xx, and frees every program they compiled`,
    { timeout: 120_000 },
    async () => {
      const admin = credentials(server).administrator!;
      const total = emptyOutcome();
      for (let i = 1; i <= CYCLES; i++) addOutcome(total, await linkifierCycle(server.url, admin, i));
      // The first problems name their requests; the count then proves every step of every cycle ran.
      expect(total.serverErrors).toEqual([]);
      expect(total.failures).toEqual([]);
      expect(total.requests).toBe(CYCLES * 6);
      // What is still compiled is the renderer's programs of the linkifiers the realm has (its own, compiled by the
      // first render): nothing of a cycle's linkifier, created, edited and deleted, nor of a check that compiled it.
      const listed = await call(server, 'GET', '/api/v1/realm/linkifiers', { as: admin });
      const kept = (listed.body.linkifiers as { pattern: string }[]).map((l) => wrappedSource(l.pattern));
      expect([...alive].map((program) => program.pattern()).filter((source) => !kept.includes(source))).toEqual([]);
    },
  );
});
