/** Free TCP ports for test servers (no dependencies: usable from jest globalSetup too). */
import { createServer } from 'node:net';

/** A free TCP port on 127.0.0.1 (bound, read, released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
