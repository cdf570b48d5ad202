import type { IncomingHttpHeaders } from 'node:http';
import {
  type CallToolResult,
  classifyInboundRequest,
  isJsonContentType,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import { jsonEqual, jsonValuesAtMost } from '../../lib/jsonEqual';
import type { McpCatalogue, PreparedTool, ToolRun } from './mcpServer';

/**
 * The one protocol revision of the 2026 line the SDK serves: its requests carry the `_meta`
 * envelope, and its answers are JSON.
 */
export const MODERN_REVISION = '2026-07-28';

/** A `tools/call` the endpoint answers itself: the tool, its arguments, and how to answer. */
export interface DirectCall {
  tool: PreparedTool;
  args: Record<string, unknown>;
  id: string | number;
  era: 'legacy' | 'modern';
}

/**
 * A whole answer to write (status 200): content type, body and more headers. The body is one
 * buffer, or pieces written one after the other in one write (a cached read's shared JSON text
 * goes out as it is, never copied into a new buffer).
 */
export interface DirectAnswer {
  contentType: string;
  body: Buffer | readonly Buffer[];
  headers: Readonly<Record<string, string>>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/**
 * The call a request makes when it is the protocol's hot path, answered without building an MCP
 * server, a web `Request` and a web `Response` for it (about 0.6 ms of CPU each time): one
 * well-formed `tools/call`, on either revision, of a tool that asks the person nothing. The SDK's own
 * classification decides the revision. Anything else (another method, an unknown tool, a tool
 * that asks for confirmation, odd headers or arguments, every refusal the protocol defines) is
 * undefined and goes to the SDK, which answers it as the protocol says. A test holds the two paths'
 * answers equal (test/api/mcp/directCall.test.ts).
 */
export function directCallOf(
  catalogue: McpCatalogue,
  headers: IncomingHttpHeaders,
  body: unknown,
): DirectCall | undefined {
  if (!isRecord(body) || body.method !== 'tools/call' || body.jsonrpc !== '2.0') return undefined;
  const { id, params } = body;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id))) return undefined;
  if (!isRecord(params) || typeof params.name !== 'string') return undefined;
  if (Object.keys(params).some((key) => key !== 'name' && key !== 'arguments' && key !== '_meta'))
    return undefined;
  const args = params.arguments ?? {};
  if (!isRecord(args)) return undefined;
  const accept = header(headers, 'accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  if (!isJsonContentType(header(headers, 'content-type') ?? '')) return undefined;
  const tool = catalogue.tools.find((candidate) => candidate.spec.name === params.name);
  if (!tool || tool.spec.confirm) return undefined;

  const era = eraOf(
    header(headers, 'mcp-protocol-version'),
    header(headers, 'mcp-method'),
    header(headers, 'mcp-name'),
    body,
    params,
  );
  return era ? { tool, args, id, era } : undefined;
}

/**
 * The revision a tool call may be answered on directly, by the SDK's classification; undefined when
 * the SDK must answer (a refusal of the protocol's, an envelope to reject). The classification
 * validates the envelope with the SDK's schemas, tens of µs a call; it reads only the headers, the
 * method and `params._meta` of a request whose JSON-RPC shape `directCallOf` checked already, and
 * a client sends the same ones each time: so the answers are kept, by those.
 */
function eraOf(
  version: string | undefined,
  method: string | undefined,
  name: string | undefined,
  body: Record<string, unknown>,
  params: Record<string, unknown>,
): DirectCall['era'] | undefined {
  const tool = params.name;
  const at = knownEras.findIndex(
    (k) =>
      k.version === version &&
      k.method === method &&
      k.name === name &&
      k.tool === tool &&
      jsonEqual(k.meta, params._meta, MAX_META_VALUES) === true,
  );
  if (at >= 0) {
    const kept = knownEras[at]!;
    // The most recent first: a client sends the same envelope call after call.
    if (at > 0) knownEras.unshift(...knownEras.splice(at, 1));
    return kept.era || undefined;
  }
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: version,
    mcpMethodHeader: method,
    mcpNameHeader: name,
    body,
  });
  let era: DirectCall['era'] | undefined;
  if (route.kind === 'modern') {
    const modern =
      route.messageKind === 'request' &&
      route.classification.revision === MODERN_REVISION &&
      version === MODERN_REVISION &&
      method === 'tools/call' &&
      name === params.name;
    if (modern) era = 'modern';
  } else if (route.kind === 'legacy' && route.reason === 'no-claim') {
    const known = version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(version);
    const bare = !isRecord(params._meta) || Object.keys(params._meta).length === 0;
    if (known && bare) era = 'legacy';
  }
  // A larger envelope (a client's own `_meta`) is classified each time rather than kept.
  if (jsonValuesAtMost(params._meta, MAX_META_VALUES)) {
    knownEras.unshift({
      version,
      method,
      name,
      tool,
      meta: structuredClone(params._meta),
      era: era ?? false,
    });
    if (knownEras.length > MAX_KNOWN) knownEras.pop();
  }
  return era;
}

/** The values of an envelope (`params._meta`) kept with its era at most. */
const MAX_META_VALUES = 64;
/** The envelopes whose era is kept, the most recently used first. */
const MAX_KNOWN = 64;
/**
 * The eras decided (`false`: the SDK answers), by the headers, tool and envelope of the calls:
 * compared member by member, which costs a call far less than serialising them into a key.
 */
const knownEras: Array<{
  version: string | undefined;
  method: string | undefined;
  name: string | undefined;
  tool: unknown;
  meta: unknown;
  era: DirectCall['era'] | false;
}> = [];

/**
 * The answer the SDK gives a call's result, byte for byte: on the 2026 revision a JSON response
 * whose result names the server (`serverInfo`) and is complete; on the 2025 ones, one event of a
 * stream (the stateless fallback answers so). A structured content already serialised
 * (`run.structuredBytes`, a cached read's shared JSON text) is written as it is: not parsed and
 * serialised again, nor copied.
 */
export function directAnswer(
  call: DirectCall,
  run: ToolRun,
  server: { name: string; version: string },
): DirectAnswer {
  const frame = FRAMES[call.era];
  const id = JSON.stringify(call.id);
  let body: DirectAnswer['body'];
  if (run.structuredBytes) {
    // The result around a one-character stand-in for its structured content, cut where it stands:
    // inside a JSON string a quote is always escaped, so only the member itself reads so.
    const text = JSON.stringify(inSdkOrder(run.result as CallToolResult, call.era, server, '\0'));
    const at = text.indexOf(STAND_IN) + STAND_IN_KEY.length;
    body = [
      Buffer.from(`${frame.before}{"result":${text.slice(0, at)}`),
      run.structuredBytes,
      Buffer.from(`${text.slice(at + STAND_IN_VALUE.length)},"jsonrpc":"2.0","id":${id}}${frame.after}`),
    ];
  } else {
    const result = inSdkOrder(run.result as CallToolResult, call.era, server);
    body = Buffer.from(
      `${frame.before}{"result":${JSON.stringify(result)},"jsonrpc":"2.0","id":${id}}${frame.after}`,
    );
  }
  return { contentType: frame.contentType, body, headers: frame.headers };
}

const STAND_IN_KEY = '"structuredContent":';
const STAND_IN_VALUE = '"\\u0000"';
const STAND_IN = STAND_IN_KEY + STAND_IN_VALUE;

/**
 * A tool's result as the SDK writes it: the members of its result schema first, in the schema's
 * order (`_meta`, `content`, `structuredContent`, `isError`), then any other; on the 2026 revision,
 * stamped as the SDK stamps it: `resultType` last, and `serverInfo` added to `_meta`, which goes
 * after it when the result had none. `structured` stands for the structured content when given.
 */
function inSdkOrder(
  result: CallToolResult,
  era: DirectCall['era'],
  server: { name: string; version: string },
  structured: unknown = result.structuredContent,
): Record<string, unknown> {
  const { _meta, content, structuredContent, isError, ...rest } = result;
  const ordered: Record<string, unknown> = {};
  const stamp = era === 'modern' ? { [SERVER_INFO_META_KEY]: server } : undefined;
  if (_meta !== undefined) ordered._meta = stamp ? { ..._meta, ...stamp } : _meta;
  ordered.content = content;
  if (structuredContent !== undefined) ordered.structuredContent = structured;
  if (isError !== undefined) ordered.isError = isError;
  Object.assign(ordered, rest);
  if (stamp) {
    ordered.resultType ??= 'complete';
    if (_meta === undefined) ordered._meta = stamp;
  }
  return ordered;
}

/** How each revision frames the message: alone on the 2026 one, as one event of a stream on the 2025 ones. */
const FRAMES = {
  modern: { before: '', after: '', contentType: 'application/json', headers: Object.freeze({}) },
  legacy: {
    before: 'event: message\ndata: ',
    after: '\n\n',
    contentType: 'text/event-stream',
    headers: Object.freeze({ 'X-Accel-Buffering': 'no' }),
  },
} as const;
