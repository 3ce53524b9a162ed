import { describe, expect, it } from 'vitest';
import { loadOperations } from '../../src/http/openapi.js';
import { routes } from '../../src/routes/index.js';
import * as channelActions from '../../src/domain/actions/channels.js';
import * as compatLookupActions from '../../src/domain/actions/compat-lookups.js';
import * as draftActions from '../../src/domain/actions/drafts.js';
import * as editDeleteActions from '../../src/domain/actions/edit-delete.js';
import * as flagsReactionsActions from '../../src/domain/actions/flags-reactions.js';
import * as linkifierActions from '../../src/domain/actions/linkifiers.js';
import * as messageActions from '../../src/domain/actions/messages.js';
import * as navigationViewActions from '../../src/domain/actions/navigation-views.js';
import * as reminderActions from '../../src/domain/actions/reminders.js';
import * as savedSnippetActions from '../../src/domain/actions/saved-snippets.js';
import * as scheduledActions from '../../src/domain/actions/scheduled.js';
import * as subscriptionActions from '../../src/domain/actions/subscriptions.js';
import * as userActions from '../../src/domain/actions/users.js';
import * as queueActions from '../../src/events/queue-actions.js';

/**
 * ARCHITECTURE "Actions": every operation that changes state has one action named do<OperationId in
 * PascalCase>, so `grep -rn "export.*function do[A-Z]" mock-server/src` lists them all.
 */
describe('one action per state-changing operation', () => {
  /** POST operations that change nothing: rendering a preview and logging in with a password. */
  const READ_ONLY = new Set(['render-message', 'fetch-api-key']);
  const actions: Record<string, unknown> = {
    ...channelActions,
    ...compatLookupActions,
    ...draftActions,
    ...editDeleteActions,
    ...flagsReactionsActions,
    ...linkifierActions,
    ...messageActions,
    ...navigationViewActions,
    ...reminderActions,
    ...savedSnippetActions,
    ...scheduledActions,
    ...subscriptionActions,
    ...userActions,
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
