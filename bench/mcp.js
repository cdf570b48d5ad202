'use strict';
// The MCP benchmark: MCP tool calls (POST /api/v1.0/mcp) against the HTTP operations they call
// (`list_my_templates`: GET /me/catalog/templates; `preview_team_request`: POST
// /teams/provisioning/preview), as Alex, one request at a time, on the
// same Steward child in the same run: p50/p99 and Steward's CPU a call (/proc of the child). Tool
// calls are sent as a stateless client sends them: one POST each, on the 2026-07-28 revision (the
// request's `_meta` envelope) and on the 2025 one (no handshake: the stateless fallback).
const { performance } = require('node:perf_hooks');
const { Pool } = require('undici');
const { cpuNsOf, startServer } = require('./processes');
const { percentile } = require('./stores');

const MCP_PATH = '/api/v1.0/mcp';
/** Each tool measured, with the HTTP operation it calls: a cached read, and a read that evaluates rules. */
const PAIRS = [
  { tool: 'list_my_templates', args: {}, method: 'GET', path: '/api/v1.0/me/catalog/templates' },
  {
    tool: 'preview_team_request',
    args: { template: { id: 'client-engagement' }, team: { name: 'Acme' } },
    method: 'POST',
    path: '/api/v1.0/teams/provisioning/preview',
  },
];
/** At most this many times the HTTP operation's latency (p50 and p99) and CPU a call. */
const TARGET_MULTIPLE = 1.5;

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'steward-bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The request of one kind of call for `pair`: HTTP, or a tool call on either revision. */
function requestOf(pair, kind, token) {
  const headers = { authorization: `Bearer ${token}` };
  if (kind === 'http') {
    if (pair.method === 'GET') return { method: 'GET', path: pair.path, headers };
    const json = { ...headers, 'content-type': 'application/json' };
    return { method: pair.method, path: pair.path, headers: json, body: JSON.stringify(pair.args) };
  }
  const modern = kind === 'mcp-2026';
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: pair.tool, arguments: pair.args, ...(modern ? { _meta: ENVELOPE } : {}) },
  });
  return {
    method: 'POST',
    path: MCP_PATH,
    body,
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(modern
        ? {
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': pair.tool,
          }
        : {}),
    },
  };
}

/** What an answer says: the operation's body, or the tool result's structured content (the same). */
function answerOf(kind, text) {
  if (kind === 'http') return JSON.parse(text);
  const json = text.startsWith('{') ? text : /^data: (.*)$/m.exec(text)[1];
  const message = JSON.parse(json);
  if (!message.result || message.result.isError) throw new Error(`${kind}: ${json.slice(0, 300)}`);
  return message.result.structuredContent;
}

/**
 * `count` calls one after the other on `pool` (one connection, kept from round to round): their
 * latencies in ms, and Steward's CPU over them in ns (all its threads, garbage collection included).
 */
async function measure(server, pool, request, kind, count) {
  const times = [];
  let answer;
  const cpuBefore = cpuNsOf(server.pid);
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    const res = await pool.request(request);
    const text = await res.body.text();
    times.push(performance.now() - started);
    if (res.statusCode !== 200) throw new Error(`${kind}: ${res.statusCode} ${text.slice(0, 300)}`);
    if (i === 0) answer = answerOf(kind, text);
  }
  const cpuAfter = cpuNsOf(server.pid);
  return { times, cpuNs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore, answer };
}

async function run({ quick = false } = {}) {
  // A long-running server's steady state: the CPU a call keeps falling for thousands of calls as the
  // JIT settles, so each kind makes 2 000 unmeasured calls first, then 6 000 measured.
  const options = quick ? { count: 300, warmup: 50, rounds: 3 } : { count: 6000, warmup: 2000, rounds: 12 };
  const server = await startServer('steward.js', { label: 'steward' });
  const kinds = ['http', 'mcp-2026', 'mcp-2025'];
  const rows = [];
  const targets = [];
  try {
    for (const pair of PAIRS) {
      // Every kind alike: its own connection kept throughout, the same token, the same warm-up, and
      // short rounds in turn whose order rotates, so that the machine's other work (a shared machine's
      // bursts last seconds) falls on every kind alike; the percentiles are of all its calls together.
      const pools = Object.fromEntries(kinds.map((kind) => [kind, new Pool(server.url, { connections: 1 })]));
      const requests = Object.fromEntries(kinds.map((kind) => [kind, requestOf(pair, kind, server.token)]));
      const runs = Object.fromEntries(kinds.map((kind) => [kind, []]));
      try {
        for (const kind of kinds) await measure(server, pools[kind], requests[kind], kind, options.warmup);
        const perRound = Math.round(options.count / options.rounds);
        for (let round = 0; round < options.rounds; round += 1)
          for (let k = 0; k < kinds.length; k += 1) {
            const kind = kinds[(k + round) % kinds.length];
            runs[kind].push(await measure(server, pools[kind], requests[kind], kind, perRound));
          }
      } finally {
        await Promise.all(kinds.map((kind) => pools[kind].close()));
      }
      const results = {};
      for (const kind of kinds) {
        const list = runs[kind];
        const times = list.flatMap((r) => r.times).sort((a, b) => a - b);
        const cpu = list.some((r) => r.cpuNs === null)
          ? null
          : list.reduce((sum, r) => sum + r.cpuNs, 0) / 1000 / times.length;
        results[kind] = {
          p50: percentile(times, 0.5),
          p99: percentile(times, 0.99),
          cpu,
          answer: list[0].answer,
        };
      }
      const http = results.http;
      for (const kind of ['mcp-2026', 'mcp-2025'])
        if (JSON.stringify(results[kind].answer) !== JSON.stringify(http.answer))
          throw new Error(`${pair.tool} (${kind}) answered other than ${pair.method} ${pair.path}`);
      const ratio = (kind, key) => results[kind][key] / http[key];
      for (const kind of kinds)
        rows.push({
          call:
            kind === 'http'
              ? `${pair.method} ${pair.path.slice('/api/v1.0'.length)}`
              : `${pair.tool} (${kind.slice(4)})`,
          p50: `${results[kind].p50.toFixed(2)} ms`,
          p99: `${results[kind].p99.toFixed(2)} ms`,
          'CPU a call': results[kind].cpu === null ? 'n/a' : `${Math.round(results[kind].cpu)} µs`,
          'p50 ×': ratio(kind, 'p50').toFixed(2),
          'p99 ×': ratio(kind, 'p99').toFixed(2),
          'CPU ×': results[kind].cpu === null ? 'n/a' : ratio(kind, 'cpu').toFixed(2),
        });
      for (const kind of ['mcp-2026', 'mcp-2025'])
        targets.push(
          {
            name: `${pair.tool} (${kind.slice(4)}): p50 and p99 <= ${TARGET_MULTIPLE} × HTTP`,
            met: ratio(kind, 'p50') <= TARGET_MULTIPLE && ratio(kind, 'p99') <= TARGET_MULTIPLE,
            detail: `p50 ${ratio(kind, 'p50').toFixed(2)} ×, p99 ${ratio(kind, 'p99').toFixed(2)} ×`,
          },
          {
            name: `${pair.tool} (${kind.slice(4)}): Steward CPU a call <= ${TARGET_MULTIPLE} × HTTP`,
            met: results[kind].cpu !== null && ratio(kind, 'cpu') <= TARGET_MULTIPLE,
            detail: results[kind].cpu === null ? 'no /proc' : `${ratio(kind, 'cpu').toFixed(2)} ×`,
          },
        );
    }
    const markdown = [
      `One call at a time, each kind on its own connection, ${options.warmup} unmeasured calls of each kind, then`,
      `${options.count} measured in ${options.rounds} rounds of every kind in turn (the order rotating); percentiles of`,
      "all a kind's calls, Steward's CPU a call from its threads' schedstat (ns), as Alex. A tool call is answered",
      'by Steward as the MCP SDK answers it (src/api/mcp/directCall.ts), through the same API stages as the',
      'HTTP operation, and its structured content is checked equal to its answer.',
    ].join('\n');
    return { rows, markdown, targets };
  } finally {
    await server.stop();
  }
}

module.exports = {
  name: 'mcp',
  description:
    'MCP tool calls (list_my_templates, preview_team_request) against the HTTP operations they call, the same Steward and run; targets: p50, p99 and CPU a call <= 1.5 × HTTP.',
  run,
};
