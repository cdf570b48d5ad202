import { curatedOpenApi30, toSchema30, type OpenApi31 } from '../../../src/api/copilot/openApi30';

describe('JSON Schema 2020-12 to the OpenAPI 3.0 dialect', () => {
  test('a type with null becomes nullable', () => {
    expect(toSchema30({ type: ['string', 'null'], maxLength: 3 })).toEqual({
      type: 'string',
      nullable: true,
      maxLength: 3,
    });
  });

  test('an anyOf with null becomes a nullable allOf of the other schema', () => {
    expect(toSchema30({ anyOf: [{ $ref: '#/components/schemas/A' }, { type: 'null' }] })).toEqual({
      nullable: true,
      allOf: [{ $ref: '#/components/schemas/A' }],
    });
  });

  test('const, examples and numeric exclusive bounds take their 3.0 forms', () => {
    expect(toSchema30({ type: 'string', const: 'x', examples: ['x', 'y'] })).toEqual({
      type: 'string',
      enum: ['x'],
      example: 'x',
    });
    expect(toSchema30({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 })).toEqual({
      type: 'number',
      minimum: 0,
      exclusiveMinimum: true,
      maximum: 10,
      exclusiveMaximum: true,
    });
  });

  test('a $ref with siblings becomes an allOf, which 3.0 does not ignore', () => {
    expect(toSchema30({ $ref: '#/components/schemas/A', description: 'The A.' })).toEqual({
      description: 'The A.',
      allOf: [{ $ref: '#/components/schemas/A' }],
    });
  });

  test('nested schemas are converted and 2020-12 keywords dropped', () => {
    expect(
      toSchema30({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        propertyNames: { pattern: '^a' },
        properties: { a: { type: ['integer', 'null'] } },
        additionalProperties: { const: 1 },
        items: { type: ['boolean', 'null'] },
        oneOf: [{ type: 'string' }, { type: 'number' }],
      }),
    ).toEqual({
      type: 'object',
      properties: { a: { type: 'integer', nullable: true } },
      additionalProperties: { enum: [1] },
      items: { type: 'boolean', nullable: true },
      oneOf: [{ type: 'string' }, { type: 'number' }],
    });
  });
});

describe('the curated 3.0.3 document', () => {
  const served: OpenApi31 = {
    info: { title: 'T' },
    paths: {
      '/a': {
        get: {
          operationId: 'getA',
          responses: {
            '200': {
              description: 'A.',
              headers: { 'request-id': { schema: { type: 'string' } } },
              content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } },
            },
          },
        },
        post: { operationId: 'previewA', responses: { '200': { description: 'Nothing made.' } } },
      },
      '/b': {
        put: {
          operationId: 'putB',
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/B' } } } },
          responses: { '204': { description: 'Done.' } },
        },
      },
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        A: { type: 'object', properties: { inner: { $ref: '#/components/schemas/Inner' } } },
        Inner: { type: ['string', 'null'] },
        B: { type: 'object' },
      },
    },
  };
  const info = { version: '1', serverUrl: 'https://steward.example/api/v1.0', description: 'D.' };

  test('keeps the operations asked for, the schemas they reach and no other, without headers', () => {
    const doc = curatedOpenApi30(served, [{ operationId: 'getA' }], info) as {
      openapi: string;
      servers: unknown;
      paths: Record<string, Record<string, { responses: Record<string, Record<string, unknown>> }>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.servers).toEqual([{ url: info.serverUrl }]);
    expect(Object.keys(doc.paths)).toEqual(['/a']);
    expect(Object.keys(doc.paths['/a']!)).toEqual(['get']);
    expect(doc.paths['/a']!.get!.responses['200']!.headers).toBeUndefined();
    expect(doc.components.schemas).toEqual({
      A: served.components.schemas.A,
      Inner: { type: 'string', nullable: true },
    });
  });

  test('marks a read-only POST non-consequential, and a write not', () => {
    const doc = curatedOpenApi30(
      served,
      [
        { operationId: 'previewA', readOnlyPost: true },
        { operationId: 'putB', readOnlyPost: false },
      ],
      info,
    ) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    expect(doc.paths['/a']!.post!['x-oai-isConsequential']).toBe(false);
    expect(doc.paths['/b']!.put!['x-oai-isConsequential']).toBeUndefined();
  });

  test('refuses an operation the document does not have', () => {
    expect(() => curatedOpenApi30(served, [{ operationId: 'getA' }, { operationId: 'nope' }], info)).toThrow(
      'No such operation in the document: nope.',
    );
  });
});
