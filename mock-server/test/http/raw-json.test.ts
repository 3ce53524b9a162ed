import { describe, expect, it } from 'vitest';
import { withJsonTexts } from '../../src/contract/json-text.js';
import { answerText, RawJson } from '../../src/http/respond.js';

/** sendJson's text (http/respond.ts answerText): spliced pre-made JSON gives the bytes JSON.stringify gives. */
describe('answer text with pre-made JSON', () => {
  const event = { type: 'message', message: { id: 1, content: 'é "q" \u2028' }, flags: [] };
  const text = JSON.stringify(event);

  it('splices a top-level RawJson and an array of them, keys in order, undefined left out', () => {
    const body = {
      result: 'success',
      msg: '',
      skipped: undefined,
      one: new RawJson(text),
      many: [new RawJson(text), new RawJson('[]')],
      n: 2,
    };
    const plain = { result: 'success', msg: '', skipped: undefined, one: event, many: [event, []], n: 2 };
    expect(answerText(body)).toBe(JSON.stringify(plain));
  });

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
    expect(answerText([new RawJson('1')])).toBe(JSON.stringify([{ text: '1' }]));
  });
});
