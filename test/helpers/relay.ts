/**
 * A TCP relay in front of a real service (PostgreSQL, Redis) that a test cuts to make an outage:
 * every connection through it is closed and new ones are refused until it is restored on the same
 * port. The service itself is shared by every test run and is never stopped.
 */
import net from 'node:net';

/** A TCP relay to `target` that can be cut (every connection closed, new ones refused) and restored. */
export interface Relay {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a relay on 127.0.0.1 (`port`, default any free one) to `target`. */
export async function startRelay(target: { host: string; port: number }, port = 0): Promise<Relay> {
  const sockets = new Set<net.Socket>();
  let server: net.Server;
  const listen = (p: number) =>
    new Promise<number>((resolve, reject) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.once('error', reject);
      server.listen(p, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  const bound = await listen(port);
  return { port: bound, cut: stop, restore: () => listen(bound).then(() => undefined), close: stop };
}
