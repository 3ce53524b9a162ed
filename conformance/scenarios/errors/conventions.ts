import type { Reply } from '../../src/client.js';
import type { ScenarioContext } from '../../src/context.js';
import { scenario, scenarios } from '../../src/dsl.js';
import { isStringArray } from './support.js';

/**
 * Spec §1 "Unsupported parameters" (from level 167, §9): a success lists the parameters the operation
 * does not support in ignored_parameters_unsupported. Checked on a POST (form field), a GET (query
 * string) and register (a parameter the reference server knows but the spec does not list). Below
 * level 167 the field is not expected, so the scenario checks the other side of the boundary there.
 */

interface Row {
  key: string;
  title: string;
  extra: string;
  call: (ctx: ScenarioContext) => Promise<Reply>;
}

const rows: Row[] = [
  {
    key: 'post',
    title: 'a form field render does not take',
    extra: 'flavour',
    call: (ctx) => ctx.as('member').post('/api/v1/messages/render', { content: 'hello', flavour: 'vanilla' }),
  },
  {
    key: 'get',
    title: 'a query parameter the channel list does not take',
    extra: 'include_everything_ever',
    call: (ctx) => ctx.as('member').get('/api/v1/streams', { include_everything_ever: true }),
  },
  {
    key: 'register',
    title: 'queue_lifespan_secs, which register does not list',
    extra: 'queue_lifespan_secs',
    call: (ctx) => ctx.snapshot('member', { event_types: ['drafts'], queue_lifespan_secs: 600 }),
  },
];

export default scenarios(rows, (row) =>
  scenario({
    id: `errors/ignored-parameters-${row.key}`,
    title: `${row.title} is listed in ignored_parameters_unsupported (from level 167)`,
    rules: ['R1-4', 'R9-3'],
    when: (ctx) => row.call(ctx),
    then: (ctx, res) => {
      ctx.expectSuccess('R1-4', res);
      const listed = res.body.ignored_parameters_unsupported;
      if (ctx.has('ignored_parameters_unsupported')) {
        ctx.check(
          'R1-4',
          isStringArray(listed) && listed.includes(row.extra),
          `ignored_parameters_unsupported ${JSON.stringify(listed)} names ${row.extra}`,
          res,
        );
        ctx.check('R9-3', Array.isArray(listed), 'the field exists at this level', res);
      } else {
        ctx.check('R9-3', listed === undefined, `below level 167: ignored_parameters_unsupported ${JSON.stringify(listed)}`, res);
      }
    },
  }),
);
