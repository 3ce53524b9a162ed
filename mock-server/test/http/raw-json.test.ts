import { describe, expect, it } from 'vitest';
import { withJsonTexts } from '../../src/contract/json-text.js';
import { answerText } from '../../src/http/respond.js';

/** sendJson's text (http/respond.ts answerText): spliced pre-made JSON gives the bytes JSON.stringify gives. */
describe('answer text with pre-made JSON', () => {
  const event = { type: 'message', message: { id: 1, content: 'é "q" \u2028' }, flags: [] };
  const text = JSON.stringify(event);

  it('splices the texts kept beside a list, stringifying the elements without one', () => {
    const heartbeat = { type: 'heartbeat', id: 3 };
    const events = withJsonTexts([event, heartbeat], [text, undefined]);
    expect(answerText({ result: 'success', msg: '', events })).toBe(
      JSON.stringify({ result: 'success', msg: '', events: [event, heartbeat] }),
    );
  });

  it('uses no kept texts for a copy of the list (a pruned answer), nor when there are none', () => {
    const events = withJsonTexts([event], ['{"not":"this"}']);
    expect(answerText({ events: events.slice() })).toBe(JSON.stringify({ events: [event] }));
    expect(answerText({ events: [event], other: [1, undefined] })).toBe(JSON.stringify({ events: [event], other: [1, undefined] }));
    // Only an answer object's own lists are spliced: a list at the top is stringified whole.
    expect(answerText(events)).toBe(JSON.stringify([event]));
  });
});
