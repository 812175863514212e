/**
 * DESIGN D12 under real failovers: a primary, a replica and three sentinels (test/helpers/sentinel.ts),
 * a coursegate process reaching Redis through `REDIS_SENTINELS` (`REDIS_MIN_REPLICAS_ACKED=1`, the
 * Sentinel default) while members refresh in a loop, resending the same refresh token after a 503.
 * Three rounds: `kill -9` of the current primary, restarted 3 s later on its port (the sentinels
 * elect the replica meanwhile, or take the old primary back).
 *
 * Asserted: the process connects again after every round (its client never stays ended), 0 members
 * signed out (every answer 200 or 503 + Retry-After), and `/readyz` is never 200 while this
 * process's client has given up; after each round it is 200 with Redis up. The deterministic
 * reproduction of the ended client is test/scale/redis-ended-client.test.ts.
 */
import { redisEnded } from '../../adapters/redis.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorizeMember, redeemCode, refresh } from '../helpers/flows.js';
import {
  MASTER_NAME,
  nodeCommand,
  REDIS_SERVER,
  startSentinelTopology,
  type SentinelTopology,
} from '../helpers/sentinel.js';

const ROUNDS = 3;
const CHAINS = 6;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
if (!REDIS_SERVER) process.stderr.write('\n*** SKIPPED: redis-server not installed: Sentinel kill test ***\n');
const d = REDIS_SERVER ? describe : describe.skip;

d('kill -9 of the Sentinel primary, repeated, under refresh load', () => {
  let topology: SentinelTopology;
  let server: TestServer;
  const chains: { token: string; signedOut?: string }[] = [];
  const answers: Record<string, number> = {};
  /** /readyz answers that said "ready" while this process's Redis client had given up. */
  const readyWhileEnded: string[] = [];

  beforeAll(async () => {
    topology = await startSentinelTopology();
    server = await startTestServer({
      REDIS_SENTINELS: topology.sentinels.join(','),
      REDIS_SENTINEL_NAME: MASTER_NAME,
      REDIS_MIN_REPLICAS_ACKED: '1',
      RATE_LIMIT_TOKEN: '100000/60',
    });
    const o = server.baseUrl;
    for (let i = 0; i < CHAINS; i++) {
      const res = await redeemCode(o, o, await authorizeMember(o, o));
      expect(res.status).toBe(200);
      chains.push({ token: String(res.body.refresh_token) });
    }
  }, 90_000);
  afterAll(async () => {
    await server?.close();
    await topology?.stop();
  });

  /** The primary the sentinels name, once it is a primary with its replica in sync. */
  async function settled(timeoutMs: number): Promise<number> {
    for (const until = Date.now() + timeoutMs; Date.now() < until; await sleep(250)) {
      try {
        const port = await topology.primaryPort();
        const info = String(await nodeCommand(port, 'INFO', 'replication'));
        if (/role:master/.test(info) && /^slave\d+:.*state=online/m.test(info)) return port;
      } catch {
        /* a node is down or restarting */
      }
    }
    throw new Error(`no settled primary within ${timeoutMs} ms`);
  }

  test(`${ROUNDS} rounds: the process always reconnects, 0 sign-outs, /readyz never ready with an ended client`, async () => {
    const o = server.baseUrl;
    const client = server.store.redis!;
    let ends = 0;
    client.on('end', () => ends++);
    let running = true;
    const load = chains.map(async (chain) => {
      while (running && !chain.signedOut) {
        const res = await refresh(o, chain.token).catch(() => undefined);
        const key = !res
          ? 'network error'
          : res.status === 503 && res.headers.get('retry-after')
            ? '503 + Retry-After'
            : String(res.status);
        answers[key] = (answers[key] ?? 0) + 1;
        if (res?.status === 200) chain.token = String(res.body.refresh_token);
        else if (res && res.status !== 503) chain.signedOut = `${res.status} ${JSON.stringify(res.body)}`;
        await sleep(res?.status === 503 ? 100 : 20);
      }
    });
    const watch = (async () => {
      while (running) {
        const ended = redisEnded(client);
        const res = await fetch(`${o}/readyz`).catch(() => undefined);
        if (res) {
          const body = (await res.json()) as { checks: Record<string, string> };
          // Ended before and after the answer: the answer was given while the client had given up.
          if (res.status === 200 && ended && redisEnded(client)) readyWhileEnded.push(JSON.stringify(body.checks));
        }
        await sleep(100);
      }
    })();
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const victim = await settled(45_000);
        const index = topology.nodes.findIndex((n) => n.port === victim);
        await sleep(500);
        topology.nodes[index]!.process.kill('SIGKILL');
        await sleep(3000);
        await topology.restartNode(index);
        await settled(45_000);
        // This process is back on the primary: ready, Redis up, its client not ended.
        let last = '';
        for (const until = Date.now() + 15_000; Date.now() < until; await sleep(200)) {
          const res = await fetch(`${o}/readyz`);
          last = `${res.status} ${JSON.stringify(((await res.json()) as { checks: unknown }).checks)}`;
          if (res.status === 200 && client.status === 'ready' && last.includes('"redis":"up"')) break;
        }
        expect({ round, client: client.status, readyz: last }).toEqual({
          round,
          client: 'ready',
          readyz: expect.stringMatching(/^200 .*"redis":"up"/),
        });
      }
    } finally {
      running = false;
      await Promise.all([...load, watch]);
    }
    process.stderr.write(
      `sentinel kill ×${ROUNDS}: answers ${JSON.stringify(answers)}; the client ended ${ends} time(s) and came back\n`,
    );
    expect(chains.filter((c) => c.signedOut)).toEqual([]);
    expect(Object.keys(answers).filter((k) => k !== '200' && k !== '503 + Retry-After')).toEqual([]);
    expect(readyWhileEnded).toEqual([]);
    // Every chain refreshes afterwards (resending after 503s while a replica resyncs).
    for (const chain of chains) {
      let res = await refresh(o, chain.token);
      for (const until = Date.now() + 30_000; res.status === 503 && Date.now() < until; await sleep(250))
        res = await refresh(o, chain.token);
      expect([res.status, res.body.error]).toEqual([200, undefined]);
    }
  }, 240_000);
});
