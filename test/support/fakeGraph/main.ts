import { readFileSync, writeFileSync } from 'node:fs';
import { FakeGraph } from './server';
import { PUBLISHED_LIMITS } from './limits';
import type { FakeUser } from './records';

/**
 * The Graph simulator as its own process, for benchmarks: Microsoft's published limits and a
 * team-creation latency of 20–60 s, both multiplied by FAKE_GRAPH_SCALE (default 0.2), on
 * FAKE_GRAPH_PORT (default any free port). It prints one JSON line with the settings a Steward
 * needs (`config`), then serves until stopped; SIGTERM or SIGINT prints the simulator's counts as a
 * last JSON line: Graph requests, those that concern teams and groups (with the Bot Connector's),
 * 429s by bucket, teams made, and teams sharing a display name (duplicates). FAKE_GRAPH_USERS names
 * a JSON file of people (`FakeUser[]`) to put in the directory first. FAKE_GRAPH_TIMELINE names a
 * file the simulator writes on stop: every Teams request's decision (time, request class, the
 * bucket that refused it) and every request (time, method, path), for a benchmark's timeline.
 * FAKE_GRAPH_GROUP_REPLICATION_S (default 0) makes each new group invisible for up to that many
 * seconds (scaled), as Graph's replication does (`groupReplicationMs`).
 * FAKE_GRAPH_FILES_FOLDER_S (default 0): a private or shared channel's files folder answers 404
 * that many seconds (scaled) after the channel is made, as SharePoint makes its site.
 * FAKE_GRAPH_TEAMS=N adds N existing teams first (`seedTeams`), for the lifecycle benchmark;
 * FAKE_GRAPH_TEAMS_FILE names a file where their ids and names are written (the drift benchmark
 * records them as made from a template).
 *
 * @example
 * npx ts-node test/support/fakeGraph/main.ts
 */
async function main(): Promise<void> {
  const scale = Number(process.env.FAKE_GRAPH_SCALE ?? '0.2');
  if (!(scale > 0))
    throw new Error(`FAKE_GRAPH_SCALE must be a positive number, got "${process.env.FAKE_GRAPH_SCALE}"`);
  const groupReplicationS = Number(process.env.FAKE_GRAPH_GROUP_REPLICATION_S ?? '0');
  if (!(groupReplicationS >= 0))
    throw new Error(
      `FAKE_GRAPH_GROUP_REPLICATION_S must be a number of seconds, got "${process.env.FAKE_GRAPH_GROUP_REPLICATION_S}"`,
    );
  const graph = await FakeGraph.start({
    port: Number(process.env.FAKE_GRAPH_PORT ?? '0'),
    limits: PUBLISHED_LIMITS,
    scale,
    latency: { minMs: 20_000, maxMs: 60_000 },
    replicationMs: 5_000,
    groupReplicationMs: groupReplicationS * 1000,
    filesFolderMs: Number(process.env.FAKE_GRAPH_FILES_FOLDER_S ?? '0') * 1000,
    bot: {
      appId: 'b0b0b0b0-0000-0000-0000-00000000b0b0',
      secret: 'bot-secret',
      teamsAppId: '5e7a1c2d-3b4f-4a6e-9c8d-7f6e5d4c3b2a',
    },
  });
  const users = process.env.FAKE_GRAPH_USERS;
  if (users) for (const user of JSON.parse(readFileSync(users, 'utf8')) as FakeUser[]) graph.addUser(user);
  const existing = Number(process.env.FAKE_GRAPH_TEAMS ?? '0');
  if (!(Number.isInteger(existing) && existing >= 0))
    throw new Error(`FAKE_GRAPH_TEAMS must be a whole number, got "${process.env.FAKE_GRAPH_TEAMS}"`);
  const seeded = seedTeams(graph, existing);
  if (process.env.FAKE_GRAPH_TEAMS_FILE)
    writeFileSync(process.env.FAKE_GRAPH_TEAMS_FILE, JSON.stringify(seeded));
  // Microsoft's Website tab app, in every tenant's catalog (the `project` template pins one).
  graph.apps.set('com.microsoft.teamspace.tab.web', {
    id: 'com.microsoft.teamspace.tab.web',
    externalId: null,
    displayName: 'Website',
    distributionMethod: 'store',
  });
  // Planner's tab and Forms, in every tenant's catalog too (the onboarding-buddy template uses them).
  graph.apps.set('com.microsoft.teamspace.tab.planner', {
    id: 'com.microsoft.teamspace.tab.planner',
    externalId: null,
    displayName: 'Tasks by Planner and To Do',
    distributionMethod: 'store',
  });
  graph.apps.set('81fef3a6-72aa-4648-a763-de824aeafb7d', {
    id: '81fef3a6-72aa-4648-a763-de824aeafb7d',
    externalId: null,
    displayName: 'Forms',
    distributionMethod: 'store',
  });
  const teamsBefore = graph.teams.size;
  process.stdout.write(`${JSON.stringify({ config: graph.config(), scale })}\n`);
  const stop = () => {
    const names = new Map<string, number>();
    for (const team of graph.teams.values()) {
      const name = graph.groups.get(team.id)?.displayName ?? team.id;
      names.set(name, (names.get(name) ?? 0) + 1);
    }
    const counts = {
      graphRequests: graph.graphRequests().length,
      teamCalls: graph.requests.filter(
        (r) => /^\/v1\.0\/(teams|groups)/.test(r.path) || r.path.startsWith('/botframework/'),
      ).length,
      // Where the calls went: team creations sent, group and user reads, and the 404s of reads
      // and creations while a new group or team was replicating.
      postTeams: graph.requests.filter((r) => r.method === 'POST' && /^\/v1\.0\/teams$/.test(r.path)).length,
      groupReads: graph.requests.filter((r) => r.method === 'GET' && /^\/v1\.0\/groups[/(]/.test(r.path))
        .length,
      userReads: graph.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1.0/users')).length,
      notFound: graph.requests.filter((r) => r.status === 404 && /^\/v1\.0\/(teams|groups)/.test(r.path))
        .length,
      throttled: Object.fromEntries(graph.throttle?.refused ?? []),
      throttledTotal: graph.throttle?.refusedTotal ?? 0,
      admitted: Object.fromEntries(graph.throttle?.admitted ?? []),
      teams: graph.teams.size - teamsBefore,
      duplicateTeams: [...names.values()].reduce((sum, n) => sum + n - 1, 0),
      // Channels sharing a name in one team (Teams refuses them; a second create is a 409).
      duplicateChannels: [...graph.teams.values()].reduce((sum, team) => {
        const channelNames = new Set(team.channels.map((c) => c.displayName.toLowerCase()));
        return sum + team.channels.length - channelNames.size;
      }, 0),
      // Tabs sharing a name in one channel.
      duplicateTabs: [...graph.teams.values()].reduce(
        (sum, team) =>
          sum +
          team.channels.reduce(
            (n, c) => n + c.tabs.length - new Set(c.tabs.map((t) => t.displayName)).size,
            0,
          ),
        0,
      ),
    };
    const timeline = process.env.FAKE_GRAPH_TIMELINE;
    if (timeline) {
      const requests = graph.requests.map((r) => [r.at, r.method, r.path.replace(/\?.*$/, '')]);
      writeFileSync(timeline, JSON.stringify({ decisions: graph.throttle?.decisions ?? [], requests }));
    }
    process.stdout.write(`${JSON.stringify(counts)}\n`);
    void graph.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/**
 * `count` teams made over the last 400 days, as a tenant that has had Graph for a while: two owners
 * each (every 100th none), a guest in every tenth, activity in the last 180 days for two in three.
 * Owners and guests are made-up ids: the lifecycle reads roles from the team's members, not people.
 * Returns their ids and names.
 */
function seedTeams(graph: FakeGraph, count: number): Array<{ id: string; displayName: string }> {
  const seeded: Array<{ id: string; displayName: string }> = [];
  const DAY = 86_400_000;
  const now = Date.now();
  const person = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  for (let i = 0; i < count; i++) {
    const displayName = `Existing team ${i}`;
    const id = graph.addTeam({
      displayName,
      ownerIds: i % 100 === 0 ? [] : [person(2 * i), person(2 * i + 1)],
      guestIds: i % 10 === 0 ? [person(10_000_000 + i)] : [],
      createdDateTime: new Date(now - Math.floor((i / count) * 400 * DAY)).toISOString(),
      ...(i % 3 === 0
        ? {}
        : { lastActivityDate: new Date(now - (i % 170) * DAY).toISOString().slice(0, 10) }),
    });
    seeded.push({ id, displayName });
  }
  return seeded;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
