import net from 'node:net';
import { IDLE_CONNECTION_MS } from '../../../src/api/idleConnections';
import { suiteSteward } from '../../support/steward';

/** One keep-alive connection, read as raw HTTP/1.1: each `get` writes a request and reads its answer. */
async function keepAliveConnection(url: string) {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = '';
  let closed = false;
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  socket.on('close', () => (closed = true));
  socket.on('error', () => (closed = true));
  return {
    get closed() {
      return closed;
    },
    /** Resolves with the answer's head, or with null when the server closes the connection first. */
    get: (path: string) =>
      new Promise<string | null>((resolve) => {
        received = '';
        const done = () => {
          socket.off('data', check);
          socket.off('close', done);
          resolve(null);
        };
        const check = () => {
          const end = received.indexOf('\r\n\r\n');
          if (end < 0) return;
          socket.off('data', check);
          socket.off('close', done);
          resolve(received.slice(0, end));
        };
        socket.on('data', check);
        socket.once('close', done);
        if (closed) return done();
        socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: keep-alive\r\n\r\n`);
      }),
    close: () => socket.destroy(),
  };
}

/**
 * Clients and proxies reuse an idle connection for as long as they believe it lives: a server
 * that drops it sooner makes their next request fail with ECONNRESET (seen as a flaky test on a
 * loaded machine, and as a 502 behind nginx, whose upstream connections idle for 60 s).
 */
describe('idle keep-alive connections', () => {
  const suite = suiteSteward('sqlite');

  test('outlive a proxy’s idle timeout, and the server announces how long', async () => {
    const connection = await keepAliveConnection(suite.app.url);
    try {
      const first = await connection.get('/healthz');
      expect(first).toMatch(/^HTTP\/1\.1 200/);
      // What the server announces is what clients plan on: longer than nginx's 60 s upstream idle.
      const announced = /\r\nKeep-Alive: timeout=(\d+)(\r\n|$)/i.exec(first ?? '')?.[1];
      expect(Number(announced) * 1000).toBe(IDLE_CONNECTION_MS);
      expect(IDLE_CONNECTION_MS).toBeGreaterThan(60_000);
      // Idle for longer than Node's default keep-alive (5 s): the idle time is what is tested here.
      await new Promise((resolve) => setTimeout(resolve, 6000));
      expect(connection.closed).toBe(false);
      expect(await connection.get('/healthz')).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      connection.close();
    }
  });
});
