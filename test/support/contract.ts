import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { _ } from 'ajv/dist/compile/codegen';
import standaloneCode from 'ajv/dist/standalone';
import addFormats from 'ajv-formats';

const DOCUMENT_ID = 'https://steward.test/openapi.json';

/**
 * Where compiled validators are kept between test files, by document: compiling a response schema
 * costs far more than loading its compiled code (about 0.1 s of CPU a file), and every file of a
 * run checks the same document. Inside node_modules, so that the code's own `require`s find Ajv.
 */
const CACHE = path.resolve(__dirname, '..', '..', 'node_modules', '.cache', 'steward-contract');
/** A document's folder not used for this long is removed when another document's is made. */
export const CACHE_UNUSED_MS = 7 * 24 * 60 * 60 * 1000;
/** The code is Ajv's: another version of it compiles anew. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const AJV_VERSION = (require('ajv/package.json') as { version: string }).version;

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
    // The compiled code is kept (standalone, with ajv-formats' formats by reference).
    code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
  });
  /** This document's folder in the cache: its paths and models hashed. */
  private readonly cached: string;
  private readonly operations: Array<{ method: string; pattern: RegExp; operationId: string; path: string }> =
    [];
  private readonly compiled = new Map<string, ValidateFunction>();
  /** Whether this validator has marked its folder as used (its time set to now) yet. */
  private used = false;

  /** `models`: the document's paths and components as JSON (its identity, for the cache). */
  constructor(
    readonly document: OpenApiDocument,
    models: string = JSON.stringify([document.paths, document.components]),
  ) {
    addFormats(this.ajv);
    // The components once, under an id of their own: every response schema compiled later points
    // into them, so a model is compiled once per validator, not once per operation.
    this.ajv.addSchema({ $id: DOCUMENT_ID, components: document.components });
    const hash = createHash('sha256').update(AJV_VERSION).update(models);
    this.cached = path.join(CACHE, hash.digest('hex').slice(0, 16));
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
      validate = this.validatorOf(key, schema);
      this.compiled.set(key, validate);
    }
    if (!validate(body)) {
      throw new Error(`${key} body does not match its schema: ${this.ajv.errorsText(validate.errors)}`);
    }
  }

  /**
   * The validator of `key`'s schema: loaded from the cache, or compiled and then kept there (written
   * whole under a name of its own, then renamed: a file another worker reads is never half-written).
   */
  private validatorOf(key: string, schema: Record<string, unknown>): ValidateFunction {
    const file = path.join(this.cached, `${key.replace(/\W+/g, '-')}.js`);
    if (!this.used) {
      this.used = true;
      // The folder's time says when a run last used it: the pruning below keeps what runs use.
      const now = new Date();
      try {
        utimesSync(this.cached, now, now);
      } catch {
        // Not made yet (or pruned a moment ago): it is made below, with the time of now.
      }
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- code Ajv generated, by path
    if (existsSync(file)) return require(file) as ValidateFunction;
    const validate = this.ajv.compile(
      JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`)),
    );
    if (mkdirSync(this.cached, { recursive: true })) pruneUnused(this.cached);
    const writing = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(writing, standaloneCode(this.ajv, validate));
    renameSync(writing, file);
    return validate;
  }
}

/**
 * Removes the cache's folders no run has used for `CACHE_UNUSED_MS` (the documents of older
 * versions), once `made` is new: the cache holds the documents in use, not every one ever tested.
 */
function pruneUnused(made: string): void {
  const now = Date.now();
  for (const name of readdirSync(CACHE)) {
    const folder = path.join(CACHE, name);
    if (folder === made) continue;
    try {
      if (now - statSync(folder).mtimeMs > CACHE_UNUSED_MS) rmSync(folder, { recursive: true, force: true });
    } catch {
      // Removed meanwhile by another worker: nothing left to do.
    }
  }
}
