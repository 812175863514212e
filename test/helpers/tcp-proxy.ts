/**
 * A TCP proxy on loopback that a test can cut: the server under test reaches a store through it,
 * and `cut()` ends every open connection and refuses new ones (the store as seen from a process
 * whose network to it failed, or a stopped server), without touching the store itself (shared by
 * other tests). `restore()` accepts again on the same port.
 */
import net from 'node:net';

/** A running proxy. */
export interface CuttableProxy {
  /** The port to connect to instead of the target's. */
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a proxy to `host:port`. */
export async function startCuttableProxy(host: string, port: number): Promise<CuttableProxy> {
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(port, host);
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (p: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(p, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  const proxyPort = await listen(0);
  return {
    port: proxyPort,
    cut: stop,
    async restore() {
      await listen(proxyPort);
    },
    close: stop,
  };
}
