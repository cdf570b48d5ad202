'use strict';
// Child entry of the benchmarks: the baseline, a bare node:http server that answers every request
// with the same bytes and content type Steward answered (argv: body file, content type). It does
// no routing, auth or I/O, so it measures what Node's HTTP stack alone costs on this machine.
const { readFileSync } = require('node:fs');
const http = require('node:http');

const body = readFileSync(process.argv[2]);
const headers = { 'Content-Type': process.argv[3], 'Content-Length': String(body.length) };

const server = http.createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, pid: process.pid })}\n`);
});
process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
