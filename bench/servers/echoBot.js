'use strict';
// Child entry of the bot benchmark: the baseline, the smallest bot the SDK makes. A botbuilder
// CloudAdapter (no app id: local, unauthenticated traffic, as Steward's bot in the benchmark) and an
// ActivityHandler on restify at `POST /api/messages`, answering every message with one fixed text
// through the Bot Connector named by the activity's serviceUrl. No state, no API call, no card:
// what a turn costs the SDK, restify and Node alone. Prints one JSON line `{ url, pid }` on stdout.
const restify = require('restify');
const { ActivityHandler, CloudAdapter, ConfigurationBotFrameworkAuthentication } = require('botbuilder');

const TEXT = 'I understand "help", "my requests" and "request a team".';

const adapter = new CloudAdapter(new ConfigurationBotFrameworkAuthentication({}));
adapter.onTurnError = async (context, error) => {
  console.error(error);
  await context.sendActivity('Sorry, something went wrong.').catch(() => undefined);
};

const bot = new ActivityHandler();
bot.onMessage(async (context, next) => {
  await context.sendActivity(TEXT);
  await next();
});

const server = restify.createServer({ handleUncaughtExceptions: false });
server.use(restify.plugins.bodyParser({ maxBodySize: 256 * 1024 }));
server.post('/api/messages', async (req, res) => {
  await adapter.process(req, res, (context) => bot.run(context));
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, pid: process.pid })}\n`);
});
process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.server.closeAllConnections();
});
