import { renderMarkdown } from '../domain/markdown.js';
import { defineRoutes } from '../http/define-routes.js';

export default defineRoutes([
  {
    // §4.20: no blank or length check on content; "" renders to "" (reference §4.20).
    operationId: 'render-message',
    handle: ({ params }) => ({ rendered: renderMarkdown(params.content as string) }),
  },
]);
