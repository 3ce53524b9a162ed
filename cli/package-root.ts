import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The files the programs read at run time (the OpenAPI document, the rule catalogue, the world schema and
 * the demo world) sit at the package root, outside the compiled tree. A path written relative to a source
 * file would break once that file runs from dist/ (one level deeper), so every such path is resolved from
 * the root instead: the nearest directory above this module whose package.json is teamchat-kit's. Both the
 * mock server and the conformance suite use this module; it imports neither.
 */
export const PACKAGE_NAME = 'teamchat-kit';

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME) return dir;
    if (dirname(dir) === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package root above ${start}`);
  }
}

export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** A file of the package, by its path from the package root (`openapi/team-chat.openapi.yaml`). */
export const packagePath = (relative: string): string => join(PACKAGE_ROOT, relative);
