import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { PEOPLE, suiteSteward } from '../support/steward';

const BIN = path.join(__dirname, '..', '..', 'dist', 'cli', 'mcp.js');

/**
 * `steward-mcp` (the built dist/cli/mcp.js, package.json's `bin`), started by the SDK's own stdio
 * client against a Steward listening on loopback: the tools are Steward's, run as the token's caller.
 */
describe('steward-mcp, the stdio bridge', () => {
  const suite = suiteSteward('sqlite', { people: { alex: { id: PEOPLE.alex, name: 'Alex Wilber' } } });

  /** The bridge as a client starts it, with `env`; its stderr is kept. */
  const start = async (env: Record<string, string>, modern = false) => {
    const stderr = new PassThrough();
    let errors = '';
    stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN],
      env: { PATH: String(process.env.PATH), ...env },
      stderr: 'pipe',
    });
    transport.stderr?.pipe(stderr);
    const client = new Client(
      { name: 'steward-test', version: '1.0.0' },
      modern ? { versionNegotiation: { mode: 'auto' } } : {},
    );
    try {
      await client.connect(transport);
    } catch (error) {
      // A refused handshake leaves the bridge running: it is stopped here, not left to the runner.
      await transport.close();
      errors += (error as Error).message;
      return { client: undefined, errors: () => errors };
    }
    return { client, errors: () => errors };
  };

  test.each([
    ['2025', false],
    ['2026-07-28', true],
  ])('lists the tools and calls one as the caller (%s revision)', async (_revision, modern) => {
    const { client } = await start({ STEWARD_URL: suite.app.url, STEWARD_TOKEN: suite.alex }, modern);
    if (!client) throw new Error('the bridge did not connect');
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['request_team', 'approve_request']),
      );
      const result = (await client.callTool({ name: 'list_my_templates', arguments: {} })) as {
        isError?: boolean;
        structuredContent?: { value: Array<{ id: string }> };
      };
      expect(result.isError).toBeFalsy();
      // What Alex may use over HTTP, no more.
      const http = await suite.app.call<{ value: Array<{ id: string }> }>(
        'GET',
        '/api/v1.0/me/catalog/templates',
        {
          token: suite.alex,
        },
      );
      expect(result.structuredContent!.value.map((t) => t.id)).toEqual(http.body.value.map((t) => t.id));
    } finally {
      await client.close();
    }
  });

  test('a token Steward refuses fails the call with Steward’s reason, and the token is never written', async () => {
    const forged = `${suite.alex.slice(0, -4)}AAAA`;
    const { client, errors } = await start({ STEWARD_URL: suite.app.url, STEWARD_TOKEN: forged });
    expect(client).toBeUndefined();
    expect(errors()).toMatch(/401/);
    expect(errors()).not.toContain(forged);
  });
});
