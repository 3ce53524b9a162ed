import { scenario } from '../../src/dsl.js';

/**
 * Spec §1 "Response body" and "Success", §7 opening sentence: the envelope of answers. (Every exchange
 * of every scenario gets these checks too; these scenarios make sure each side is exercised once.)
 */
export default [
  scenario({
    id: 'conventions/success-envelope',
    title: 'a success carries result "success" and an empty msg',
    rules: ['R1-2', 'R1-3'],
    tags: ['envelope'],
    when: (ctx) => ctx.as('member').post('/api/v1/messages/render', { content: '**hi**' }),
    then: (ctx, res) => {
      ctx.expectSuccess('R1-3', res);
      ctx.expectEqual('R1-2', typeof res.body.msg, 'string', 'msg is a string', res);
    },
  }),
  scenario({
    id: 'conventions/error-envelope',
    title: 'an error carries result "error", a code and a msg',
    rules: ['R1-2', 'R7-1'],
    tags: ['envelope'],
    when: (ctx) => ctx.as('member').get('/api/v1/messages/999999999'),
    then: (ctx, res) => {
      ctx.check(
        'R7-1',
        res.body.result === 'error' && typeof res.body.code === 'string' && typeof res.body.msg === 'string' && res.body.msg !== '',
        `error envelope: ${res.text.slice(0, 200)}`,
        res,
      );
      ctx.check('R1-2', res.status === 400, `HTTP ${res.status} for a missing message (BAD_REQUEST is 400, §7)`, res);
    },
  }),
];
