import {
  type CallToolResult,
  type InputRequiredResult,
  McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ApiError } from '../../contract';
import { toApiError } from '../errors';
import type { RouteEntry, ServeOptions } from '../pipeline/serve';
import type { Route } from '../route';
import { CONFIRMATION_ARGUMENT, confirmationGate } from './confirm';
import { type CallerRequest, dispatch, type OperationOutcome } from './dispatch';
import { registerResources } from './resources';
import { type ToolInput, toolInputOf } from './toolInput';
import { TOOLS, type ToolSpec } from './tools';

/** A tool with its route and its arguments, prepared once for every request's server. */
export interface PreparedTool {
  spec: ToolSpec;
  entry: RouteEntry;
  input: ToolInput;
}

/** What every request's MCP server is built from. */
export interface McpCatalogue {
  tools: PreparedTool[];
  /** The route of each operation the tools and resources call. */
  entries: ReadonlyMap<string, RouteEntry>;
  version: string;
}

/** The tools whose operation this process serves (none is left out in an API process). */
export function mcpCatalogue(entries: ReadonlyMap<string, RouteEntry>, version: string): McpCatalogue {
  const tools: PreparedTool[] = [];
  for (const spec of TOOLS) {
    const entry = entries.get(spec.operationId);
    if (!entry) continue;
    tools.push({ spec, entry, input: toolInputOf(entry.route, spec.confirm ? CONFIRMATION_ARGUMENT : {}) });
  }
  return { tools, entries, version };
}

/**
 * The MCP server answering one HTTP request for one caller (`from`): every tool calls its API
 * operation through the API's stages with the caller's own token (`dispatch`).
 */
export function mcpServerFor(
  catalogue: McpCatalogue,
  from: CallerRequest,
  options: ServeOptions,
  era: 'legacy' | 'modern',
  message?: unknown,
): McpServer {
  const server = new McpServer(
    { name: 'steward', version: catalogue.version },
    {
      instructions:
        'Steward governs Microsoft Teams: every tool acts as the signed-in caller, with their roles, and ' +
        'nothing here goes around approval. Tools that decide, withdraw, delete or overwrite ask the person first.',
    },
  );
  const called = calledTool(message);
  for (const tool of catalogue.tools) {
    if (called !== undefined && tool.spec.name !== called) continue;
    const { spec, input } = tool;
    server.registerTool(
      spec.name,
      {
        title: spec.title,
        description: spec.description,
        inputSchema: input.schema,
        annotations: { title: spec.title, ...spec.annotations },
      },
      async (args: Record<string, unknown>, ctx: ServerContext) =>
        (await runTool(tool, args, from, options, era, ctx)).result,
    );
  }
  if (called === undefined) registerResources(server, catalogue.entries, from, options);
  return server;
}

/** A tool's run: its result, and its structured content's JSON text when it was serialised already. */
export interface ToolRun {
  result: CallToolResult | InputRequiredResult;
  structuredBytes?: Buffer;
}

/**
 * Runs a tool for the caller (`from`): its confirmation first (`ctx`, the protocol's request; a tool
 * asking none runs without it), then its API operation through the API's stages.
 */
export async function runTool(
  tool: PreparedTool,
  args: Record<string, unknown>,
  from: CallerRequest,
  options: ServeOptions,
  era: 'legacy' | 'modern',
  ctx?: ServerContext,
): Promise<ToolRun> {
  const { spec, entry, input } = tool;
  if (spec.confirm) {
    if (!ctx) throw new Error(`${spec.name} asks the person first: it runs with its protocol request`);
    const gate = confirmationGate(spec.confirm(args), args, ctx, era);
    if (gate) return { result: gate };
  }
  let outcome: OperationOutcome;
  try {
    outcome = await dispatch(entry, input.split(args), from, options);
  } catch (error) {
    // The arguments split into the operation's inputs (an unknown one refused): mapped as the
    // operation maps errors, so a fault reads as the API's generic 500, never its message.
    const mapped = toApiError(error, { requestId: '' });
    if (mapped.status >= 500) options.logger.error({ err: error, tool: spec.name }, 'mcp tool failed');
    outcome = { status: mapped.status, body: mapped.body };
  }
  const result = resultOf(spec, entry.route, outcome, args);
  // The structured content is the operation's own answer: its JSON text serves again as it is.
  const sameBody = outcome.status < 400 && result.structuredContent === outcome.body;
  return { result, ...(sameBody && outcome.bytes ? { structuredBytes: outcome.bytes } : {}) };
}

/**
 * The tool a request calls, when it is one `tools/call`: the server built for it registers that
 * tool alone (it answers the call as the whole server would, an unknown name included), which
 * spares a call the building of every other tool.
 */
function calledTool(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  return method === 'tools/call' && typeof params?.name === 'string' ? params.name : undefined;
}

/** A tool's result: the operation's answer as structured content, and a sentence a model can quote. */
export function resultOf(
  spec: Pick<ToolSpec, 'summary'>,
  route: Pick<Route, 'operationId'>,
  outcome: OperationOutcome,
  args: Record<string, unknown>,
): CallToolResult {
  if (outcome.status >= 400) {
    const error = (outcome.body as ApiError | undefined)?.error;
    const text = `Refused (${outcome.status} ${error?.code ?? 'error'}): ${error?.message ?? ''}`;
    return {
      isError: true,
      content: [{ type: 'text', text }],
      structuredContent: { status: outcome.status, ...(outcome.body as object) },
    };
  }
  const body = outcome.body;
  const structured =
    body === undefined
      ? { status: outcome.status }
      : Array.isArray(body)
        ? { value: body }
        : (body as Record<string, unknown>);
  return {
    content: [{ type: 'text', text: spec.summary(body, args) }],
    structuredContent: structured,
    _meta: { 'steward/operationId': route.operationId, 'steward/status': outcome.status },
  };
}
