import net from 'node:net';

/**
 * Preloaded into the Agents Playground's CLI (`node --require`, see playground.ts): a server that
 * listens without naming a host listens on 127.0.0.1 instead of every interface.
 *
 * The playground's page and its connector let whoever reaches them chat as the configured person
 * (Alex, Adele…), with no sign-in; its CLI has no option for the host and calls
 * `server.listen(port, callback)`, which Node.js binds to every interface. A listen that names a
 * host, a path or a handle is left as it is.
 */
export const LOOPBACK = '127.0.0.1';

type ListenArgs = Parameters<net.Server['listen']>;

/** `args` of a `listen` call with 127.0.0.1 as its host when it names none. */
export function onLoopback(args: unknown[]): unknown[] {
  const [first, second] = args;
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    return typeof second === 'string' ? args : [first, LOOPBACK, ...args.slice(1)];
  }
  if (first === undefined || typeof first === 'function') return [0, LOOPBACK, ...args];
  if (typeof first === 'object' && first !== null) {
    const options = first as net.ListenOptions & { handle?: unknown; fd?: unknown };
    if (options.path !== undefined || options.handle !== undefined || options.fd !== undefined) return args;
    if (options.host === undefined) return [{ ...options, host: LOOPBACK }, ...args.slice(1)];
  }
  return args;
}

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function listenOnLoopback(this: net.Server, ...args: unknown[]) {
  return listen.apply(this, onLoopback(args) as ListenArgs);
} as net.Server['listen'];
