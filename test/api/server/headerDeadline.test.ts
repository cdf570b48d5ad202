import net from 'node:net';
import { suiteSteward } from '../../support/steward';

/** The deadline the test sets (`STEWARD_BODY_TIMEOUT_MS`, shared by headers and body), from its 10 s default. */
const DEADLINE_MS = 2000;

/** The test's connections, destroyed after each test (a server that is closing looks at none). */
const opened: net.Socket[] = [];

/** A raw connection to the server, with what it answered and when it closed. */
async function connection(url: string) {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  opened.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  // Writing into a connection the server just closed: the close follows.
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
  return {
    socket,
    closed,
    get received() {
      return received;
    },
  };
}

/**
 * Trickled headers hold a connection only as long as a trickled body does: Node.js's own headers
 * deadline was 60 s, looked at every 30 s (a connection lived 66 to 96 s before its 408).
 */
describe('request headers that never end', () => {
  const suite = suiteSteward('sqlite', { env: { STEWARD_BODY_TIMEOUT_MS: String(DEADLINE_MS) } });
  afterEach(() => {
    for (const socket of opened.splice(0)) socket.destroy();
  });

  test('are answered 408 and the connection closed once STEWARD_BODY_TIMEOUT_MS has passed', async () => {
    const { hostname } = new URL(suite.app.url);
    const client = await connection(suite.app.url);
    const started = Date.now();
    client.socket.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}\r\nX-Slow: `);
    // A byte of a header every second, never the blank line that ends them.
    const drip = setInterval(() => client.socket.writable && client.socket.write('a'), 1000);
    client.socket.once('close', () => clearInterval(drip));
    const closedAt = await client.closed;
    expect(client.received).toMatch(/^HTTP\/1\.1 408/);
    expect(client.received.toLowerCase()).toContain('connection: close');
    // The deadline, then at most one look of the check (a tenth of it) and a loaded machine's slack.
    expect(closedAt - started).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(closedAt - started).toBeLessThan(DEADLINE_MS + 2000);
  }, 20_000);

  test('do not shorten a kept-alive connection: idle time between requests is not counted', async () => {
    const { hostname } = new URL(suite.app.url);
    const client = await connection(suite.app.url);
    const request = `GET /healthz HTTP/1.1\r\nHost: ${hostname}\r\nConnection: keep-alive\r\n\r\n`;
    const answers = () => client.received.match(/HTTP\/1\.1 200/g)?.length ?? 0;
    const answered = (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (answers() < count) return;
          client.socket.off('data', check);
          resolve();
        };
        client.socket.on('data', check);
        check();
      });
    client.socket.write(request);
    await answered(1);
    // Idle past the headers' deadline and several looks of the check: the idle time is what is tested.
    await new Promise((resolve) => setTimeout(resolve, DEADLINE_MS + 1500));
    client.socket.write(request);
    await answered(2);
    expect(client.received).not.toMatch(/ 408 /);
  }, 20_000);
});
