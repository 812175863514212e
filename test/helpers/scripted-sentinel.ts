/**
 * A scripted Redis Sentinel on loopback: a small RESP server that answers what ioredis's Sentinel
 * connector and failover detector send (`SENTINEL get-master-addr-by-name`, `SENTINEL sentinels`,
 * `SUBSCRIBE`, `PING`, anything else `+OK`), so that a test can put the connector in the exact
 * state a real failover reaches only by timing: `+switch-master` published to the detector of a
 * lost connection while the next connection attempt is still asking for the primary.
 *
 * It names the primary the test chose (a real redis-server); it is not a Sentinel of its own.
 */
import net from 'node:net';

/** A running scripted sentinel. */
export interface ScriptedSentinel {
  /** `127.0.0.1:port` (a `REDIS_SENTINELS` value). */
  address: string;
  /** Port of the primary it names. */
  primaryPort: number;
  /** Connections subscribed to `+switch-master` now. */
  subscribers(): number;
  /**
   * At each later `get-master-addr-by-name`: publish `+switch-master` to every subscriber first,
   * then answer after `delayMs` (a sentinel busy with the election).
   */
  switchOnNextLookup(delayMs: number): void;
  /** Counts the `get-master-addr-by-name` lookups answered so far. */
  lookups(): number;
  close(): Promise<void>;
}

/** RESP encoding of a reply. */
function encode(value: unknown): string {
  if (value === null) return '*-1\r\n';
  if (Array.isArray(value)) return `*${value.length}\r\n${value.map(encode).join('')}`;
  if (typeof value === 'number') return `:${value}\r\n`;
  const s = String(value);
  return `$${Buffer.byteLength(s)}\r\n${s}\r\n`;
}

/** Parses the complete RESP arrays of bulk strings at the start of `buf`; returns them and the rest. */
function parse(buf: string): { commands: string[][]; rest: string } {
  const commands: string[][] = [];
  let at = 0;
  for (;;) {
    if (buf[at] !== '*') break;
    let i = buf.indexOf('\r\n', at);
    if (i < 0) break;
    const n = Number(buf.slice(at + 1, i));
    let p = i + 2;
    const args: string[] = [];
    let complete = true;
    for (let k = 0; k < n; k++) {
      i = buf.indexOf('\r\n', p);
      if (i < 0 || buf[p] !== '$') {
        complete = false;
        break;
      }
      const len = Number(buf.slice(p + 1, i));
      if (buf.length < i + 2 + len + 2) {
        complete = false;
        break;
      }
      args.push(buf.slice(i + 2, i + 2 + len));
      p = i + 2 + len + 2;
    }
    if (!complete) break;
    commands.push(args);
    at = p;
  }
  return { commands, rest: buf.slice(at) };
}

/**
 * Starts a scripted sentinel naming `127.0.0.1:primaryPort` as the primary of `name`.
 */
export async function startScriptedSentinel(name: string, primaryPort: number): Promise<ScriptedSentinel> {
  const subscribed = new Set<net.Socket>();
  const sockets = new Set<net.Socket>();
  let switching: number | undefined;
  let lookups = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.setEncoding('latin1');
    let pending = '';
    // ioredis 6 speaks RESP3 when the server accepts `HELLO 3`: pub/sub messages are then pushes (`>`).
    let resp3 = false;
    const push = (items: unknown[]) => (resp3 ? `>${encode(items).slice(1)}` : encode(items));
    socket.on('error', () => undefined);
    socket.on('push', (items: string[]) => socket.writable && socket.write(push(items)));
    socket.on('close', () => {
      sockets.delete(socket);
      subscribed.delete(socket);
    });
    socket.on('data', (chunk: string) => {
      const { commands, rest } = parse(pending + chunk);
      pending = rest;
      for (const args of commands) {
        const cmd = args[0]!.toLowerCase();
        const sub = args[1]?.toLowerCase();
        if (cmd === 'sentinel' && sub === 'get-master-addr-by-name' && args[2] === name) {
          lookups++;
          const answer = encode(['127.0.0.1', String(primaryPort)]);
          if (switching === undefined) {
            socket.write(answer);
            continue;
          }
          const message = ['message', '+switch-master', `${name} 127.0.0.1 ${primaryPort} 127.0.0.1 ${primaryPort}`];
          for (const s of subscribed) s.emit('push', message);
          setTimeout(() => socket.writable && socket.write(answer), switching);
        } else if (cmd === 'sentinel' && sub === 'sentinels') socket.write(encode([]));
        else if (cmd === 'hello') {
          resp3 = args[1] === '3';
          socket.write(
            resp3 ? '%2\r\n$6\r\nserver\r\n$5\r\nredis\r\n$5\r\nproto\r\n:3\r\n' : encode(['server', 'redis']),
          );
        } else if (cmd === 'subscribe') {
          subscribed.add(socket);
          for (const [i, channel] of args.slice(1).entries()) socket.write(push(['subscribe', channel, i + 1]));
        } else if (cmd === 'ping') socket.write('+PONG\r\n');
        else socket.write('+OK\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    address: `127.0.0.1:${port}`,
    primaryPort,
    subscribers: () => subscribed.size,
    switchOnNextLookup(delayMs) {
      switching = delayMs;
    },
    lookups: () => lookups,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
