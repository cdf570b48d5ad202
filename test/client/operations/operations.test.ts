import { OPERATIONS } from '../../../src/domain/rbac';
import { StewardClient } from '../../../src/client';

describe('the client covers the API', () => {
  test('it has a method named after every operationId, contract and extensions alike', () => {
    const client = new StewardClient({ baseUrl: 'http://127.0.0.1:9' });
    const methods = client as unknown as Record<string, unknown>;
    const missing = Object.keys(OPERATIONS).filter(
      (operationId) => typeof methods[operationId] !== 'function',
    );
    expect(missing).toEqual([]);
    return client.close();
  });

  test('the client imports nothing of the server but contract types and generic helpers', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const path = await import('node:path');
    const root = path.resolve(__dirname, '../../../src/client');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    for (const file of files) {
      const text = readFileSync(path.join(root, file), 'utf8');
      for (const [, kind, specifier] of text.matchAll(/^(import|export)\b[^;]*?from ['"]([^'"]+)['"]/gms)) {
        if (!specifier!.startsWith('../')) continue;
        const resolved = path.relative(root, path.resolve(path.dirname(path.join(root, file)), specifier!));
        if (resolved.startsWith('../lib/')) continue;
        if (resolved.startsWith('..')) {
          expect([file, kind, resolved]).toEqual([file, kind, '../contract']);
          expect(text).toMatch(
            new RegExp(`${kind} type[^;]*from ['"]${specifier!.replace(/[./]/g, '\\$&')}['"]`),
          );
        }
      }
    }
  });
});
