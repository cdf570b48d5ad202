import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

const DOCUMENT_ID = 'https://steward.test/openapi.json';

interface OpenApiDocument {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, ResponseObject> }>>;
  components: { schemas: Record<string, unknown> };
}
interface ResponseObject {
  content?: { 'application/json'?: { schema: Record<string, unknown> } };
}

/**
 * Checks responses against the OpenAPI document the server serves: the operation must document the
 * status, and a JSON body must validate against that status's schema.
 */
export class ContractValidator {
  private readonly ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    validateSchema: false,
    inlineRefs: false,
  });
  private readonly operations: Array<{ method: string; pattern: RegExp; operationId: string; path: string }> =
    [];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    // The components once, under an id of their own: every response schema compiled later points
    // into them, so a model is compiled once per validator, not once per operation.
    this.ajv.addSchema({ $id: DOCUMENT_ID, components: document.components });
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const pattern = new RegExp(`^/api/v1\\.0${path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
        this.operations.push({ method: method.toUpperCase(), pattern, operationId: op.operationId, path });
      }
    }
    // Static segments win over parameters, as in the router.
    const parameters = (path: string) => path.split('{').length;
    this.operations.sort((a, b) => parameters(a.path) - parameters(b.path));
  }

  /** The operation serving `method path`, if any. */
  operationOf(method: string, path: string): { operationId: string; path: string } | undefined {
    const pathname = path.split('?')[0]!;
    return this.operations.find((op) => op.method === method.toUpperCase() && op.pattern.test(pathname));
  }

  /** Throws when the response does not match the document. */
  check(method: string, path: string, status: number, body: unknown): void {
    const op = this.operationOf(method, path);
    if (!op) return;
    const response = this.document.paths[op.path]![method.toLowerCase()]!.responses[String(status)];
    if (!response)
      throw new Error(`${op.operationId} answered ${status}, which its OpenAPI entry does not document`);
    const schema = response.content?.['application/json']?.schema;
    if (!schema) {
      if (body !== undefined) throw new Error(`${op.operationId} ${status} documents no body but sent one`);
      return;
    }
    const key = `${op.operationId} ${status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(
        JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`)),
      );
      this.compiled.set(key, validate);
    }
    if (!validate(body)) {
      throw new Error(`${key} body does not match its schema: ${this.ajv.errorsText(validate.errors)}`);
    }
  }
}
