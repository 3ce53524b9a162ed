import type { ValidateFunction } from 'ajv';
import { ResponseSchemas } from '../../../conformance/src/openapi.js';

/**
 * Response schemas of the OpenAPI document, by operationId and status: the document must describe what
 * the server answers. The conformance suite's loader (the same document, compiled the same way) serves
 * the mock's tests too.
 */
export async function loadResponseSchemas(): Promise<(operationId: string, status: number) => ValidateFunction> {
  const schemas = await ResponseSchemas.load();
  return (operationId, status) => schemas.forOperation(operationId, status);
}
