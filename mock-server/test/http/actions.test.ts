/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import { loadOperations } from '../../src/http/openapi.js';
import { routes } from '../../src/routes/index.js';
import * as queueActions from '../../src/events/queue-actions.js';

/**
 * ARCHITECTURE "Actions": every operation that changes state has one action named do<OperationId in
 * PascalCase>, in its area (domain/<area>/) or, where several areas meet, in domain/actions/, so
 * `grep -rn "export.*function do[A-Z]" mock-server/src` lists them all; a write route declares it with
 * defineAction.
 */
describe('one action per state-changing operation', () => {
  /** POST operations that change nothing: rendering a preview and logging in with a password. */
  const READ_ONLY = new Set(['render-message', 'fetch-api-key']);
  /**
   * Writes whose action takes more than the operation's parameters, so their route calls it itself: the
   * event-queue actions (the queue registry, not a transaction) and the upload (the body's file parts).
   */
  const OWN_HANDLER = new Set(['register-queue', 'delete-queue', 'upload-file']);
  // Every module of the domain, found rather than listed, so an action cannot hide in a new area.
  const modules = { ...import.meta.glob<Record<string, unknown>>('../../src/domain/**/*.ts', { eager: true }), queueActions };
  /** Every exported do* function, by name: the distinct functions under that name, wherever exported. */
  const actions = new Map<string, Set<unknown>>();
  for (const exports of Object.values(modules)) {
    for (const [name, value] of Object.entries(exports)) {
      if (!/^do[A-Z]/.test(name) || typeof value !== 'function') continue;
      actions.set(name, (actions.get(name) ?? new Set()).add(value));
    }
  }
  const actionName = (operationId: string) => `do${operationId.replace(/(^|-)([a-z])/g, (_, _dash: string, c: string) => c.toUpperCase())}`;

  // Loaded once for the three checks.
  const loaded = loadOperations();

  async function changingOperations(): Promise<string[]> {
    const operations = await loaded;
    const routed = new Set<string>(routes.map((r) => r.operationId));
    return operations
      .filter((op) => routed.has(op.operationId) && op.method !== 'GET' && !READ_ONLY.has(op.operationId))
      .map((op) => op.operationId);
  }

  it('exists exactly once, under its conventional name, for every routed operation that is not a GET', async () => {
    const changing = await changingOperations();
    expect(changing.length).toBeGreaterThan(25);
    const counts = Object.fromEntries(changing.map((id) => [id, actions.get(actionName(id))?.size ?? 0]));
    expect(Object.entries(counts).filter(([, n]) => n !== 1)).toEqual([]);
  });

  it('is not defined for operations that do not exist (every do* names an operation of the document)', async () => {
    const names = new Set((await loaded).map((op) => actionName(op.operationId)));
    const strays = [...actions.keys()].filter((name) => !names.has(name));
    expect(strays).toEqual([]);
  });

  it('is what the write route declares (defineAction), except where the action needs more than the parameters', async () => {
    const byId = new Map(routes.map((r) => [r.operationId as string, r]));
    const wrong = (await changingOperations())
      .filter((id) => !OWN_HANDLER.has(id))
      .filter((id) => {
        const declared = byId.get(id)!.action;
        return declared === undefined || !actions.get(actionName(id))!.has(declared);
      });
    expect(wrong).toEqual([]);
    // The exceptions are real: none of them is declared with defineAction.
    expect([...OWN_HANDLER].filter((id) => byId.get(id)?.action !== undefined)).toEqual([]);
  });
});
