/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import { loadOperations } from '../../src/http/openapi.js';
import { routes } from '../../src/routes/index.js';
import * as queueActions from '../../src/events/queue-actions.js';

/**
 * ARCHITECTURE "Actions": every operation that changes state has one action named do<OperationId in
 * PascalCase>, so `grep -rn "export.*function do[A-Z]" mock-server/src` lists them all.
 */
describe('one action per state-changing operation', () => {
  /** POST operations that change nothing: rendering a preview and logging in with a password. */
  const READ_ONLY = new Set(['render-message', 'fetch-api-key']);
  // Every module of domain/actions/, found rather than listed, so a new area's actions cannot be left out.
  const modules = import.meta.glob<Record<string, unknown>>('../../src/domain/actions/*.ts', { eager: true });
  const actions: Record<string, unknown> = {
    ...Object.assign({}, ...Object.values(modules)),
    ...queueActions,
  };
  const actionName = (operationId: string) => `do${operationId.replace(/(^|-)([a-z])/g, (_, _dash: string, c: string) => c.toUpperCase())}`;

  it('exists, under its conventional name, for every routed operation that is not a GET', async () => {
    const operations = await loadOperations();
    const routed = new Set<string>(routes.map((r) => r.operationId));
    const changing = operations.filter((op) => routed.has(op.operationId) && op.method !== 'GET' && !READ_ONLY.has(op.operationId));
    expect(changing.length).toBeGreaterThan(25);
    const missing = changing.map((op) => actionName(op.operationId)).filter((name) => typeof actions[name] !== 'function');
    expect(missing).toEqual([]);
  });

  it('is not defined for operations that do not exist (every do* names an operation of the document)', async () => {
    const names = new Set((await loadOperations()).map((op) => actionName(op.operationId)));
    const strays = Object.keys(actions).filter((name) => /^do[A-Z]/.test(name) && !names.has(name));
    expect(strays).toEqual([]);
  });
});
