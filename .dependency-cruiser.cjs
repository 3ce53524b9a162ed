// Layer direction and cycles, checked by `npm run lint` (dependency-cruiser). ARCHITECTURE.md "Layers".
const SRC = '^mock-server/src/';

/**
 * A layer may import only the layers named in `allowed`, plus files outside mock-server/src (openapi/,
 * fixtures/world.ts, cli/common.ts). Closed world: a new folder under src/ is refused until it has a place.
 * `app-context.ts` (the composition root's bag of services) may be imported as a type; see the rule below.
 */
const layer = (name, from, allowed, why) => ({
  name,
  comment: why,
  severity: 'error',
  from: { path: `${SRC}${from}` },
  to: { path: SRC, pathNot: [`${SRC}(${allowed.join('|')})/`, `${SRC}app-context\\.ts$`] },
});

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'A cycle (type-only imports count) ties modules into one unit that can only change together.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    layer('contract-is-the-floor', 'contract/', ['contract'], 'contract/ holds wire vocabulary every layer may use: it imports no layer.'),
    layer('clock-is-the-floor', 'clock/', ['clock', 'contract'], 'The clock is injected into every layer: it imports none.'),
    layer('config-below-store', 'config/', ['config', 'clock', 'contract'], 'Configuration and feature levels are read by every layer.'),
    layer(
      'store-below-domain',
      'store/',
      ['store', 'config', 'clock', 'contract'],
      'The store knows rows and transactions, not rules or errors of the API: it has its own error type.',
    ),
    layer(
      'domain-below-events',
      'domain/',
      ['domain', 'store', 'config', 'clock', 'contract'],
      'Rules and actions know neither HTTP nor event queues: events are fed from commits.',
    ),
    layer(
      'events-above-domain',
      'events/',
      ['events', 'domain', 'store', 'config', 'clock', 'contract'],
      'Events read committed state and present it with domain code; nothing below imports them.',
    ),
    layer(
      'delivery-above-domain',
      'delivery/',
      ['delivery', 'domain', 'store', 'config', 'clock', 'contract'],
      'The scheduler runs domain actions on the clock.',
    ),
    layer(
      'fixtures-above-domain',
      'fixtures/',
      ['fixtures', 'domain', 'store', 'config', 'clock', 'contract'],
      'Realm generation builds rows with domain code.',
    ),
    layer(
      'faults-below-http',
      'faults/',
      ['faults', 'domain', 'store', 'config', 'clock', 'contract'],
      'Fault rules and rate limits decide what a request meets before it runs; http/ and control/ call them.',
    ),
    layer(
      'http-below-routes',
      'http/',
      ['http', 'faults', 'domain', 'store', 'config', 'clock', 'contract'],
      'The HTTP layer turns requests into typed calls; it never imports a route or event code.',
    ),
    layer(
      'routes-above-http',
      'routes/',
      ['routes', 'http', 'events', 'domain', 'store', 'config', 'clock', 'contract'],
      'A route binds an operation to one action.',
    ),
    layer(
      'control-beside-http',
      'control/',
      ['control', 'http', 'faults', 'events', 'delivery', 'fixtures', 'domain', 'store', 'config', 'clock', 'contract'],
      'The control API drives realms and clocks; no layer imports it but app.ts.',
    ),
    layer(
      'inspector-beside-control',
      'inspector/',
      ['inspector', 'control', 'http', 'domain', 'store', 'config', 'clock', 'contract'],
      "The inspector page (GET /) is the control API's web face: it reads through Control and the HTTP helpers.",
    ),
    {
      name: 'app-context-as-type-only',
      comment: 'The composition root builds every service; below it, code sees the bag of services as a type only.',
      severity: 'error',
      from: { path: `${SRC}[^/]+/` },
      to: { path: `${SRC}app-context\\.ts$`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'composition-root-on-top',
      comment: 'app.ts and cli.ts assemble everything; nothing imports them.',
      severity: 'error',
      from: { path: `${SRC}[^/]+/` },
      to: { path: `${SRC}(app|cli)\\.ts$` },
    },
    {
      name: 'conformance-speaks-http-only',
      comment: 'The suite works against any server, so it never imports the mock (also an ESLint rule).',
      severity: 'error',
      from: { path: '^conformance/' },
      to: { path: '^mock-server/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|reports)/' },
    // Type-only imports count: a type cycle is still a cycle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
