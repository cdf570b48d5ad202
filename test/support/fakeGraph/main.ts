import { FakeGraph } from './server';
import { PUBLISHED_LIMITS } from './limits';

/**
 * The Graph simulator as its own process, for benchmarks: Microsoft's published limits and a
 * team-creation latency of 20–60 s, both multiplied by FAKE_GRAPH_SCALE (default 0.2), on
 * FAKE_GRAPH_PORT (default any free port). It prints one JSON line with the settings a Steward
 * needs (`config`) and the certificate to trust, then serves until stopped; SIGTERM or SIGINT
 * prints the simulator's counts (requests, 429s by bucket) as a last JSON line.
 *
 * @example
 * npx ts-node test/support/fakeGraph/main.ts
 */
async function main(): Promise<void> {
  const scale = Number(process.env.FAKE_GRAPH_SCALE ?? '0.2');
  if (!(scale > 0))
    throw new Error(`FAKE_GRAPH_SCALE must be a positive number, got "${process.env.FAKE_GRAPH_SCALE}"`);
  const graph = await FakeGraph.start({
    port: Number(process.env.FAKE_GRAPH_PORT ?? '0'),
    limits: PUBLISHED_LIMITS,
    scale,
    latency: { minMs: 20_000, maxMs: 60_000 },
    replicationMs: 5_000,
    bot: {
      appId: 'b0b0b0b0-0000-0000-0000-00000000b0b0',
      secret: 'bot-secret',
      teamsAppId: 'steward-teams-app',
    },
  });
  process.stdout.write(`${JSON.stringify({ config: graph.config(), scale })}\n`);
  const stop = () => {
    const counts = {
      graphRequests: graph.graphRequests().length,
      throttled: Object.fromEntries(graph.throttle?.refused ?? []),
    };
    process.stdout.write(`${JSON.stringify(counts)}\n`);
    void graph.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
