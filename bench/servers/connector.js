'use strict';
// Child entry of the bot benchmark: a fake Bot Connector on loopback. It speaks the part of the Bot
// Framework REST protocol a bot uses to answer (create a conversation, send, reply, update) and
// notes when each activity arrived, on the machine's monotonic clock (`process.hrtime`, the same
// clock in every process on Linux), so the runner can time a turn from its own send to the bot's
// reply without the connector talking back during the measurement.
//
// `GET /_bench/arrivals` answers the arrivals noted since the last call (and forgets them):
// [{ kind, conversationId, replyToId, type, at }] with `at` in nanoseconds as a decimal string;
// `GET /_bench/last` the last activity received, whole, for the runner to check what the bot said.
// Prints one JSON line `{ url, pid }` on stdout once it listens.
const http = require('node:http');
const { URL } = require('node:url');

const ACTIVITIES = /^\/v3\/conversations\/([^/]+)\/activities(?:\/([^/]+))?$/;

let arrivals = [];
let last = null;
let counter = 0;

/** Reads a request's JSON body ({} when empty). */
async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : {};
}

function reply(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const server = http.createServer(async (req, res) => {
  const path = new URL(req.url ?? '/', 'http://connector').pathname;
  if (req.method === 'GET' && path === '/_bench/arrivals') {
    const noted = arrivals;
    arrivals = [];
    return reply(res, 200, noted);
  }
  if (req.method === 'GET' && path === '/_bench/last') return reply(res, 200, last);
  let body;
  try {
    body = await readJson(req);
  } catch {
    return reply(res, 400, { error: { code: 'badRequest', message: 'The body is not JSON.' } });
  }
  // The arrival is taken once the whole activity has been read: the reply has been received then.
  const at = process.hrtime.bigint();
  if (req.method === 'POST' && path === '/v3/conversations') {
    return reply(res, 201, { id: `created-${++counter}` });
  }
  const match = ACTIVITIES.exec(path);
  if (match && (req.method === 'POST' || (req.method === 'PUT' && match[2]))) {
    const conversationId = decodeURIComponent(match[1]);
    const kind = req.method === 'PUT' ? 'update' : match[2] ? 'reply' : 'send';
    const replyToId = req.method === 'POST' && match[2] ? decodeURIComponent(match[2]) : body.replyToId;
    last = body;
    arrivals.push({ kind, conversationId, replyToId, type: body.type, at: at.toString() });
    const activityId = req.method === 'PUT' ? decodeURIComponent(match[2]) : `activity-${++counter}`;
    return reply(res, 200, { id: activityId });
  }
  reply(res, 404, { error: { code: 'notFound', message: `${req.method} ${path}` } });
});

server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, pid: process.pid })}\n`);
});
process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
