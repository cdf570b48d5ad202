import { readFileSync } from 'node:fs';
import net from 'node:net';

/**
 * Where the ports Linux hands out by itself begin (`net.ipv4.ip_local_port_range`): to `listen(0)`
 * and to every outgoing connection. 32768 unless the machine says otherwise.
 */
function ephemeralStart(): number {
  try {
    const start = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    return Number.isInteger(start) && start > 2048 ? start : 32768;
  } catch {
    return 32768;
  }
}

const HIGHEST = ephemeralStart() - 1;
const LOWEST = Math.max(1024, HIGHEST - 12_000);

/** Whether a server may listen on loopback `port` now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A loopback port for a server a test starts by number (a Steward process, nginx, the Agents
 * Playground): free when chosen, and below the range Linux hands out by itself. A port taken with
 * `listen(0)` and closed again can be handed to any process's next outgoing connection or
 * `listen(0)` before the server binds it, and the suites beside the test make thousands of them:
 * the Playground once found its port taken and listened on another.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (HIGHEST - LOWEST + 1));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free loopback port between ${LOWEST} and ${HIGHEST}`);
}
