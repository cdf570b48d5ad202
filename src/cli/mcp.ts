#!/usr/bin/env node
import './compileCache';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { mcpBridgeEnv } from '../config/processEnv';

const USAGE = `steward-mcp: Steward's MCP server over stdio, for clients that start a local command.

  steward-mcp [--url https://steward.example.com] [--token <bearer token>]

Every message goes to the Steward at --url (else STEWARD_URL), to /api/v1.0/mcp, with the token
(--token, else STEWARD_TOKEN; prefer the variable, a command line is visible to other users).
The tools run as the token's caller, exactly as over HTTP.`;

/** The MCP path of a Steward. */
const MCP_PATH = '/api/v1.0/mcp';

type Message = {
  jsonrpc: '2.0';
  id?: string | number | null;
  method?: string;
  params?: { _meta?: Record<string, unknown> } & Record<string, unknown>;
};

/** The parameter a request's `Mcp-Name` header repeats, by method (2026-07-28 revision). */
const NAMED_BY: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/**
 * `steward-mcp`: a stdio MCP server that is a bridge to a Steward's MCP endpoint. Each JSON-RPC
 * message read on stdin is posted, with the caller's token, to `<url>/api/v1.0/mcp` (served
 * statelessly: a message needs nothing of the ones before it), and what Steward answers is written
 * on stdout, one message a line. Steward applies the caller's roles, rate limits, confirmations and
 * audit; the bridge holds no state and decides nothing.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { url: { type: 'string' }, token: { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const env = mcpBridgeEnv();
  const base = values.url ?? env.url;
  const token = values.token ?? env.token;
  if (!base || !token) {
    process.stderr.write(`steward-mcp needs a Steward URL and a token.\n\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  const endpoint = new URL(MCP_PATH, base.endsWith('/') ? base : `${base}/`).href;
  const pending = new Set<Promise<void>>();
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const sent = forward(endpoint, token, line).finally(() => pending.delete(sent));
    pending.add(sent);
  }
  await Promise.all(pending);
}

/** Posts one message to Steward and writes its answers; a failure answers the request with an error. */
async function forward(endpoint: string, token: string, line: string): Promise<void> {
  let message: Message;
  try {
    message = JSON.parse(line) as Message;
  } catch {
    write({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: not JSON.' } });
    return;
  }
  const isRequest = message.id !== undefined && message.method !== undefined;
  try {
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...revisionHeaders(message),
      },
      body: line,
    });
    const type = res.headers.get('content-type') ?? '';
    const text = await res.text();
    if (type.includes('text/event-stream')) {
      for (const data of eventData(text)) process.stdout.write(`${data}\n`);
    } else if (type.includes('json') && text && res.ok) {
      const body = JSON.parse(text) as unknown;
      for (const answer of Array.isArray(body) ? body : [body]) write(answer);
    } else if (!res.ok && isRequest) {
      const reason = refusalOf(res.status, text);
      process.stderr.write(`steward-mcp: ${message.method}: ${reason}\n`);
      write({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: reason } });
    }
  } catch (error) {
    const reason = `Steward did not answer: ${(error as Error).message}`;
    process.stderr.write(`steward-mcp: ${reason}\n`);
    if (isRequest) write({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: reason } });
  }
}

/**
 * The headers the 2026-07-28 revision derives from a request that claims it (its `_meta`
 * envelope): `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name`, which the server checks against
 * the body. A 2025 message has none.
 */
function revisionHeaders(message: Message): Record<string, string> {
  const version = message.params?._meta?.['io.modelcontextprotocol/protocolVersion'];
  if (typeof version !== 'string' || message.method === undefined || message.id === undefined) return {};
  const headers: Record<string, string> = { 'mcp-protocol-version': version, 'mcp-method': message.method };
  const field = Object.hasOwn(NAMED_BY, message.method) ? NAMED_BY[message.method]! : undefined;
  const name = field === undefined ? undefined : message.params?.[field];
  if (typeof name === 'string') headers['mcp-name'] = fieldValue(name);
  return headers;
}

/** A value as an HTTP field: plain visible ASCII as it is, anything else in the revision's base64 form. */
function fieldValue(value: string): string {
  const plain = value.length > 0 && value === value.trim() && /^[\x20-\x7e\t]*$/.test(value);
  if (plain && !(value.startsWith('=?base64?') && value.endsWith('?='))) return value;
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** The `data` of each event of a Server-Sent Events body (multi-line data joined). */
function eventData(text: string): string[] {
  const out: string[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((field) => field.startsWith('data:'))
      .map((field) => field.slice(5).replace(/^ /, ''));
    if (data.length > 0 && data.join('').trim() !== '') out.push(data.join('\n'));
  }
  return out;
}

/** What Steward's refusal says (its ApiError's message), never the token. */
function refusalOf(status: number, text: string): string {
  try {
    const error = (JSON.parse(text) as { error?: { code?: string; message?: string } }).error;
    if (error?.message) return `Steward answered ${status} (${error.code ?? 'error'}): ${error.message}`;
  } catch {
    // Not JSON: the status alone.
  }
  return `Steward answered ${status}.`;
}

function write(message: unknown): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`steward-mcp: ${(error as Error).message}\n`);
  process.exitCode = 1;
});
