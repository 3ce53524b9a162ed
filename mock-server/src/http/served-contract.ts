import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express, { type Request, type Response, type Router } from 'express';
import { sendFile, sendText } from './web-answers.js';
import { packagePath } from '../../../cli/package-root.js';
import { DEFAULT_OPENAPI_PATH } from './openapi.js';

/**
 * The contract, served: GET /openapi.json and /openapi.yaml give the OpenAPI document
 * this server validates requests with, its `servers` replaced by the URL the request reached; GET /docs is
 * an API reference page that Redoc renders from /openapi.json in the browser. Redoc's standalone bundle is
 * served by this server (`redocDirectory`), so the page loads nothing from another host.
 *
 * These routes sit outside /api/v1 and outside the control API, and are open on every address (even with a
 * control token or --no-control): the document is the public contract and reveals nothing about realms.
 */
export interface ServedContractOptions {
  /** The document the server validates with (config.openapiPath; the shipped one by default). */
  openapiPath?: string;
  /** The server's own URL, for a request without a usable Host header (HTTP/1.0). */
  fallbackOrigin: () => string;
}

/** The files of the redoc package the page may load, under /docs/. */
const REDOC_FILES = ['redoc.standalone.js', 'redoc.standalone.js.LICENSE.txt'];

/**
 * Where those files are: dist/redoc/, where the build copies them (an installed package has no redoc
 * package: it is a development dependency), else the redoc package of a checkout run from the sources.
 */
function redocDirectory(): string {
  const built = packagePath('dist/redoc');
  if (existsSync(join(built, REDOC_FILES[0]!))) return built;
  return dirname(createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js'));
}

export function servedContractRouter(options: ServedContractOptions): Router {
  const path = options.openapiPath ?? DEFAULT_OPENAPI_PATH;
  // Read now, so the document served is the one read at start-up even if the file changes later; parsed
  // on the first request, so start-up parses no YAML. A failed read answers the request as a bug.
  const text = readFile(path, 'utf8');
  text.catch(() => undefined);
  let loaded: Promise<LoadedDocument> | null = null;
  const document = () => (loaded ??= text.then(loadDocument));
  const redocDir = redocDirectory();

  const router = express.Router();
  const origin = (req: Request) => originOf(req.headers.host) ?? options.fallbackOrigin();
  const serve =
    (fn: (doc: LoadedDocument, req: Request, res: Response) => void) => (req: Request, res: Response, next: express.NextFunction) => {
      document().then((doc) => fn(doc, req, res), next);
    };

  router.get(
    '/openapi.json',
    serve((doc, req, res) => {
      sendText(res, 200, 'application/json', JSON.stringify({ ...doc.object, servers: serversFor(origin(req)) }));
    }),
  );
  router.get(
    '/openapi.yaml',
    serve((doc, req, res) => {
      sendText(res, 200, 'application/yaml', doc.yamlWith(serversFor(origin(req))));
    }),
  );
  router.get('/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', DOCS_POLICY);
    sendText(res, 200, 'text/html', DOCS_PAGE);
  });
  for (const file of REDOC_FILES) {
    router.get(`/docs/${file}`, (req, res, next) => {
      sendFile(req, res, join(redocDir, file), { dotfiles: 'deny' }, (error) => error && next(error));
    });
  }
  return router;
}

interface LoadedDocument {
  /** The document as JSON-ready data, $refs kept as written. */
  object: Record<string, unknown>;
  /** The YAML text, comments and layout kept, with its top-level `servers` replaced. */
  yamlWith(servers: Server[]): string;
}

interface Server {
  url: string;
  description: string;
}

const serversFor = (url: string): Server[] => [{ url, description: 'This server: the address this document was requested at.' }];

async function loadDocument(text: string): Promise<LoadedDocument> {
  const { isMap, isScalar, parseDocument, stringify } = await import('./document-parsers.js');
  const parsed = parseDocument(text);
  if (parsed.errors.length > 0 || !isMap(parsed.contents)) throw new Error(`the OpenAPI document is not a YAML mapping`);
  const object = parsed.toJS() as Record<string, unknown>;
  // The text between the start of the `servers` key and the end of its value is replaced as a whole, so
  // everything else (comments, anchors, the order of keys) stays exactly as written.
  const pair = parsed.contents.items.find((p) => isScalar(p.key) && p.key.value === 'servers');
  const start = isScalar(pair?.key) ? pair.key.range?.[0] : undefined;
  const valueEnd = (pair?.value as { range?: [number, number, number] } | null | undefined)?.range?.[1];
  // The value's range runs over the blank lines after it; they stay.
  const end = start !== undefined && valueEnd !== undefined ? start + text.slice(start, valueEnd).trimEnd().length : undefined;
  const block = (servers: Server[]) => stringify({ servers }, { lineWidth: 0 }).trimEnd();
  return {
    object,
    yamlWith: (servers) =>
      start !== undefined && end !== undefined
        ? text.slice(0, start) + block(servers) + text.slice(end)
        : `${text.endsWith('\n') ? text : `${text}\n`}${block(servers)}\n`,
  };
}

/**
 * `http://` + the Host header when it is a host with an optional port and nothing else; null otherwise, so a
 * Host header carrying a path, credentials or spaces never ends up in the document.
 */
export function originOf(host: string | undefined): string | null {
  if (!host || /[/\\?#@\s]/.test(host)) return null;
  try {
    return new URL(`http://${host}`).origin;
  } catch {
    return null;
  }
}

/**
 * What the page may load: only this server's files, so "no CDN" holds in the browser too. Redoc 2.5's sidebar
 * footer always shows Redocly's logo from its CDN: the policy refuses it (one console line) and Redoc then
 * drops the image, leaving the footer's text. Styles are inline (styled-components); search runs in a worker
 * made from a blob.
 */
const DOCS_POLICY = [
  "default-src 'self'",
  "img-src 'self' data:",
  "style-src 'self' 'unsafe-inline'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

/**
 * The reference page: Redoc's web component reading /openapi.json. Absolute paths, because the page is
 * also reachable as /docs/ and relative ones would then resolve under /docs/.
 */
const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Team Chat REST API reference (teamchat-kit)</title>
    <style>body { margin: 0; padding: 0; }</style>
  </head>
  <body>
    <noscript>This page needs JavaScript. The contract itself: <a href="/openapi.yaml">/openapi.yaml</a>, <a href="/openapi.json">/openapi.json</a>.</noscript>
    <redoc spec-url="/openapi.json" expand-responses="200" required-props-first="true"></redoc>
    <script src="/docs/redoc.standalone.js"></script>
  </body>
</html>
`;
