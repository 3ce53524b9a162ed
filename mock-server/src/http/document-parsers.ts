/**
 * The YAML parser and the reference resolver, loaded on demand (`await import('./document-parsers.js')`) by the
 * few paths that read an OpenAPI document from its YAML. Re-exported by name from this module rather than
 * imported on demand by package name: both packages are CommonJS, and a CommonJS package imported on demand
 * gives the build's bundle only its default export.
 */
export { isMap, isScalar, parse, parseDocument, stringify } from 'yaml';
export { default as SwaggerParser } from '@apidevtools/swagger-parser';
