/**
 * oidc-provider adapter on Redis (ioredis; standalone or Cluster) for the scale-out topology of
 * DESIGN.md §1: N stateless processes share one Redis for codes, tokens, grants and sessions.
 *
 * Written from the adapter interface of oidc-provider 9 (research/oidc-provider-v9.md §8).
 *
 * Key layout (`P` = the configured prefix, `M` = model name, `{…}` = Redis Cluster hash tag):
 *
 * | key                       | type   | holds                                                        |
 * |---------------------------|--------|--------------------------------------------------------------|
 * | `P:M:{id}`                | hash   | `p` payload JSON, `c` consumed-at (epoch s); or, for an      |
 * |                           |        | instance bound to a grant, only `g` = its grant id (locator) |
 * | `P:{g:G}:M:id`            | hash   | `p`, `c` of an instance bound to grant G                     |
 * |                           |        | (+ `n`: a rotated refresh token's successor record, `s`: shrunk) |
 * | `P:{g:G}:M:idx`           | zset   | ids of model M bound to grant G, scored by expiry (epoch ms) |
 * | `P:{g:G}:RefreshToken:rot`| zset   | rotated refresh tokens (tombstones) of G, in rotation order   |
 * | `P:M:uid:{uid}`           | string | id of the Session with that uid                              |
 * | `P:M:uc:{userCode}`       | string | id of the DeviceCode with that user code                     |
 *
 * Why: every key of one grant shares the slot of `{g:G}`, so the upsert script (instance + grant
 * index) and the revocation script (index + its members) are single-slot, atomic and legal on a
 * Cluster. `revokeByGrantId` is O(live tokens of that grant). Every key carries the instance's TTL
 * (`expiresIn`); grant indexes are trimmed of expired members on each write and expire with their
 * longest-lived member, so nothing grows without bound (the flaws of the old upstream example).
 * `consume` is an atomic check-and-set script: of N concurrent redemptions exactly one succeeds,
 * the others get `invalid_grant` (RFC 6749 §5.2), the contract of `adapters/sqlite.ts`; consuming
 * an absent or expired instance never recreates a payload-less key.
 *
 * Refresh rotation (adapters/rotation.ts, DESIGN D3) is one script on the grant's slot: the old
 * token's consumption, its successor record (field `n`, for a grace-window replay), its tombstone
 * TTL and the successor's data + index entry are written together or not at all; the grant keeps
 * at most `keepTombstones` tombstones.
 */
import { Cluster, Redis } from 'ioredis';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import {
  savedAlong,
  type RefreshRotation,
  type RotatedSuccessor,
  type RotationOutcome,
  type RotationPolicy,
  type RotationResult,
  type SavedAlong,
} from './rotation.js';

/** Models whose instances can be consumed (used once). */
const CONSUMABLE = new Set([
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
]);

/** A connected ioredis client: standalone or Cluster. */
export type RedisClient = Redis | Cluster;

/** KEYS: data, index. ARGV: payload, ttl ms (0 = none), index score (epoch ms or +inf), id, now ms. */
const UPSERT = `
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'p', ARGV[1])
local ttl = tonumber(ARGV[2])
if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
if KEYS[2] then
  redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[5])
  -- The index expires with its longest-lived member (persists while one never expires).
  local top = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')[2]
  if top == 'inf' then redis.call('PERSIST', KEYS[2]) else redis.call('PEXPIREAT', KEYS[2], top) end
end
return 1`;

/**
 * KEYS: locator. ARGV: grant id, ttl ms (0 = none). The locator of a grant-bound instance, written
 * whole and atomically, as a MULTI of DEL, HSET, PEXPIRE did (issue #15): one command instead of
 * five, each costing the Node.js process its own encoding, reply and promise; and not an ioredis
 * MULTI, whose Pipeline gets a `length` getter of its own (Object.defineProperty with a new
 * closure) that V8 keeps reachable from old space until the next full collection, and with it the
 * awaiting request (~25 KB promoted per refresh grant; docs/deployment.md §2 "Memory").
 */
const LOCATE = `
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'g', ARGV[1])
local ttl = tonumber(ARGV[2])
if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
return 1`;

/**
 * KEYS: a rotated refresh token's data. ARGV: its successor's id, now (epoch s). The rotation's
 * write was acknowledged by the replicas: drop the successor record's `u` (unacknowledged) mark
 * and start the reuse clock now. Returns 1 when it was marked, 0 otherwise.
 */
const ACKNOWLEDGE = `
local n = redis.call('HGET', KEYS[1], 'n')
if not n then return 0 end
local succ = cjson.decode(n)
if not succ.u or succ.r ~= ARGV[1] then return 0 end
succ.u = nil
redis.call('HSET', KEYS[1], 'n', cjson.encode(succ), 'c', ARGV[2])
return 1`;

/** KEYS: data. ARGV: consumed-at (epoch s). Returns 1 when this call consumed it, 0 otherwise. */
const CONSUME = `
if redis.call('HEXISTS', KEYS[1], 'p') == 0 then return 0 end
return redis.call('HSETNX', KEYS[1], 'c', ARGV[1])`;

/** KEYS: index, then data keys read from it. ARGV: the ids of those data keys. Returns members left. */
const REVOKE = `
for i = 2, #KEYS do redis.call('DEL', KEYS[i]) end
if #ARGV > 0 then redis.call('ZREM', KEYS[1], unpack(ARGV)) end
local left = redis.call('ZCARD', KEYS[1])
if left == 0 then redis.call('DEL', KEYS[1]) end
return left`;

/**
 * KEYS: old data, new data, index, tombstones[, along data, along index[, also key]]. ARGV:
 * payload, ttl ms, index score, new id, now ms, grace s, tombstone ms, tombstones kept, old id,
 * now s, data key prefix of the grant's tokens, locator key prefix ('' = none), grant id, along
 * locator key (''), successor record (JSON `{"r": new id, "a": along id}`), data key prefix of
 * the grant's access tokens, [along payload, along ttl ms, along index score, along id[, also
 * payload, also ttl ms]]. The `also` instance (the access token's tombstone, an instance of no
 * grant) is written as UPSERT writes one, whenever the instance saved along is; only on a
 * standalone Redis (on a Cluster its key is in another slot: the caller writes it after).
 * Returns {'rotated', evicted tombstone ids…}; their data keys and index entries are deleted here.
 * Within the grace window (issue #25 finding 5) nothing new is saved and it returns {'grace',
 * recorded refresh id, access id, access payload}: the successor recorded on the old token (field
 * `n`) and its access token while stored, else the one saved along now (recorded instead); or
 * {'gone'} when the recorded successor is gone. The
 * tombstones' data keys read by id are in the same slot as KEYS (same `{g:G}` hash tag); so is the
 * instance saved along (the access token, bound to the same grant), written as UPSERT writes it.
 *
 * Locators live in their tokens' own slots. On a standalone Redis (no slots) the caller passes the
 * locator key prefix (`P:RefreshToken:{`), and the script also writes the successor's and the
 * instance-saved-along's locators (as LOCATE does), shrinks the rotated token's locator to the
 * tombstone's lifetime and deletes the evicted tombstones' locators: the whole rotation is one
 * command (issue #15). On a Cluster the caller does those in separate commands around the script.
 */
const ROTATE = `
if redis.call('HEXISTS', KEYS[1], 'p') == 0 then return {'gone'} end
-- Writes one instance as UPSERT does and indexes it under its grant (score = its expiry, ms).
local function save(key, payload, ttl, index, score, id)
  redis.call('DEL', key)
  redis.call('HSET', key, 'p', payload)
  local ms = tonumber(ttl)
  if ms > 0 then redis.call('PEXPIRE', key, ms) end
  redis.call('ZADD', index, score, id)
  redis.call('ZREMRANGEBYSCORE', index, '-inf', '(' .. ARGV[5])
end
-- The instance saved with the one saved along, as UPSERT writes an instance of no grant.
local function also()
  if not KEYS[7] then return end
  redis.call('DEL', KEYS[7])
  redis.call('HSET', KEYS[7], 'p', ARGV[21])
  local ms = tonumber(ARGV[22])
  if ms > 0 then redis.call('PEXPIRE', KEYS[7], ms) end
end
local loc = ARGV[12]
local function locate(key, ttl)
  redis.call('DEL', key)
  redis.call('HSET', key, 'g', ARGV[13])
  local ms = tonumber(ttl)
  if ms > 0 then redis.call('PEXPIRE', key, ms) end
end
local nowS = tonumber(ARGV[10])
local grace = tonumber(ARGV[6])
local tomb = tonumber(ARGV[7])
local c = redis.call('HGET', KEYS[1], 'c')
if c then
  local n = redis.call('HGET', KEYS[1], 'n')
  local succ = n and cjson.decode(n)
  -- A rotation no replica acknowledged (u) has not started the reuse clock: its answer was a 503.
  if not (succ and succ.u) and (grace <= 0 or nowS - tonumber(c) > grace) then return {'reused'} end
  -- DESIGN D3: the same successor again, never a second chain.
  if not succ then return {'gone'} end
  if redis.call('HEXISTS', ARGV[11] .. succ.r, 'p') == 0 then return {'gone'} end
  if succ.a then
    local ap = redis.call('HGET', ARGV[16] .. succ.a, 'p')
    if ap then return {'grace', succ.r, succ.a, ap} end
  end
  if not KEYS[5] then return {'grace', succ.r} end
  save(KEYS[5], ARGV[17], ARGV[18], KEYS[6], ARGV[19], ARGV[20])
  also()
  if loc ~= '' and ARGV[14] ~= '' then locate(ARGV[14], ARGV[18]) end
  local gtop = redis.call('ZRANGE', KEYS[6], -1, -1, 'WITHSCORES')[2]
  if gtop == 'inf' then redis.call('PERSIST', KEYS[6]) else redis.call('PEXPIREAT', KEYS[6], gtop) end
  redis.call('HSET', KEYS[1], 'n', cjson.encode({r = succ.r, a = ARGV[20], u = succ.u}))
  return {'grace', succ.r, ARGV[20], ARGV[17]}
else
  redis.call('HSET', KEYS[1], 'c', ARGV[10], 'n', ARGV[15])
  local pttl = redis.call('PTTL', KEYS[1])
  if pttl < 0 or pttl > tomb then
    pttl = tomb
    redis.call('PEXPIRE', KEYS[1], tomb)
  end
  redis.call('ZADD', KEYS[3], tonumber(ARGV[5]) + pttl, ARGV[9])
  local last = redis.call('ZRANGE', KEYS[4], -1, -1, 'WITHSCORES')[2]
  redis.call('ZADD', KEYS[4], (tonumber(last) or 0) + 1, ARGV[9])
  if loc ~= '' then redis.call('PEXPIRE', loc .. ARGV[9] .. '}', tomb, 'LT') end
end
-- Tombstones past the grace window keep only what reuse detection reads ('s' = shrunk).
local cutoff = nowS - grace
for _, tid in ipairs(redis.call('ZRANGE', KEYS[4], 0, -1)) do
  local k = ARGV[11] .. tid
  local f = redis.call('HMGET', k, 'p', 'c', 's', 'n')
  -- An unacknowledged rotation (another chain of the grant) keeps its successor until acknowledged.
  local unacked = f[4] and string.find(f[4], '"u":1', 1, true)
  if f[1] and f[2] and not f[3] and not unacked and tonumber(f[2]) < cutoff then
    local p = cjson.decode(f[1])
    local t = {jti = p.jti, kind = p.kind, iat = p.iat, exp = p.exp, clientId = p.clientId, accountId = p.accountId, grantId = p.grantId, scope = p.scope}
    redis.call('HSET', k, 'p', cjson.encode(t), 's', '1')
    redis.call('HDEL', k, 'n')
  end
end
save(KEYS[2], ARGV[1], ARGV[2], KEYS[3], ARGV[3], ARGV[4])
if loc ~= '' then locate(loc .. ARGV[4] .. '}', ARGV[2]) end
local out = {'rotated'}
local extra = redis.call('ZCARD', KEYS[4]) - tonumber(ARGV[8])
if extra > 0 then
  -- The oldest tombstones beyond the policy go: data keys and index entries (this slot). Never one
  -- still inside the grace window or not yet acknowledged: a retry of its chain is answered from it
  -- (DESIGN D3), however many other chains of the grant rotated meanwhile.
  local candidates = redis.call('ZRANGE', KEYS[4], 0, extra - 1)
  local gone = {}
  for i = 1, #candidates do
    local f2 = redis.call('HMGET', ARGV[11] .. candidates[i], 'c', 'n')
    if grace > 0 and f2[1] and tonumber(f2[1]) >= cutoff then break end
    if f2[2] and string.find(f2[2], '"u":1', 1, true) then break end
    gone[#gone + 1] = candidates[i]
  end
  if #gone > 0 then
    redis.call('ZREMRANGEBYRANK', KEYS[4], 0, #gone - 1)
    for i = 1, #gone do
      redis.call('DEL', ARGV[11] .. gone[i])
      if loc ~= '' then redis.call('DEL', loc .. gone[i] .. '}') end
      out[#out + 1] = gone[i]
    end
    redis.call('ZREM', KEYS[3], unpack(gone))
  end
end
local top = redis.call('ZRANGE', KEYS[3], -1, -1, 'WITHSCORES')[2]
if top == 'inf' then
  redis.call('PERSIST', KEYS[3])
  redis.call('PERSIST', KEYS[4])
else
  redis.call('PEXPIREAT', KEYS[3], top)
  redis.call('PEXPIREAT', KEYS[4], top)
end
if KEYS[5] then
  save(KEYS[5], ARGV[17], ARGV[18], KEYS[6], ARGV[19], ARGV[20])
  also()
  if loc ~= '' and ARGV[14] ~= '' then locate(ARGV[14], ARGV[18]) end
  local atop = redis.call('ZRANGE', KEYS[6], -1, -1, 'WITHSCORES')[2]
  if atop == 'inf' then redis.call('PERSIST', KEYS[6]) else redis.call('PEXPIREAT', KEYS[6], atop) end
end
return out`;

interface Scripts {
  cgRotate(numKeys: number, ...args: (string | number)[]): Promise<string[]>;
  cgUpsert(numKeys: number, ...args: (string | number)[]): Promise<number>;
  cgConsume(numKeys: number, ...args: (string | number)[]): Promise<number>;
  cgRevoke(numKeys: number, ...args: (string | number)[]): Promise<number>;
  cgLocate(numKeys: number, ...args: (string | number)[]): Promise<number>;
  cgAcknowledge(numKeys: number, ...args: (string | number)[]): Promise<number>;
}

function defineScripts(client: RedisClient): RedisClient & Scripts {
  const c = client as RedisClient & Partial<Scripts>;
  if (!c.cgAcknowledge) {
    client.defineCommand('cgUpsert', { lua: UPSERT });
    client.defineCommand('cgConsume', { lua: CONSUME });
    client.defineCommand('cgRevoke', { lua: REVOKE });
    client.defineCommand('cgRotate', { lua: ROTATE });
    client.defineCommand('cgLocate', { lua: LOCATE });
    client.defineCommand('cgAcknowledge', { lua: ACKNOWLEDGE });
  }
  return client as RedisClient & Scripts;
}

/** Options of {@link redisAdapterFactory}. */
export interface RedisAdapterOptions {
  /** Prefix of every key (no braces), e.g. `cg` → `cg:Session:{…}`. Default `cg`. */
  prefix?: string;
  /**
   * Writes wait for replica acknowledgments (adapters/replica-acks.ts): a rotation stays marked
   * unacknowledged (`u` in its successor record) until {@link RefreshRotation.acknowledgeRotation},
   * and until then a resend of the rotated token gets the same successor whenever it comes (its
   * answers were 503s, so the reuse clock has not started). Default false.
   */
  replicaAcks?: boolean;
}

/** Revocation reads at most this many index members per round (bounded script size). */
const REVOKE_BATCH = 500;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Builds the adapter class oidc-provider instantiates once per model name (any model name works,
 * e.g. coursegate's own `SiteChoice`).
 * @param client a connected ioredis `Redis` or `Cluster`; the caller owns it (and quits it)
 */
export function redisAdapterFactory(
  client: RedisClient,
  options: RedisAdapterOptions = {},
): new (
  name: string,
) => Adapter & RefreshRotation {
  const redis = defineScripts(client);
  // A Cluster keeps each script within one slot; a standalone server runs a rotation as one script.
  const cluster = client instanceof Cluster;
  const prefix = options.prefix ?? 'cg';
  if (/[{}]/.test(prefix)) throw new Error('redis adapter prefix must not contain braces (hash tags)');

  return class RedisAdapter implements Adapter, RefreshRotation {
    constructor(private readonly name: string) {}

    private locatorKey(id: string): string {
      return `${prefix}:${this.name}:{${id}}`;
    }
    private grantKeys(grantId: string): { data: (id: string) => string; index: string } {
      const tag = `${prefix}:{g:${grantId}}:${this.name}`;
      return { data: (id) => `${tag}:${id}`, index: `${tag}:idx` };
    }

    /** The key holding the instance's `p`/`c` fields, or undefined when it does not exist. */
    private async dataKey(id: string): Promise<{ key: string; fields?: Record<string, string> } | undefined> {
      const key = this.locatorKey(id);
      const fields = await redis.hgetall(key);
      if (fields.g !== undefined) return { key: this.grantKeys(fields.g).data(id) };
      return fields.p === undefined ? undefined : { key, fields };
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const ttlMs = expiresIn && expiresIn > 0 ? Math.ceil(expiresIn * 1000) : 0;
      const json = JSON.stringify(payload);
      const writes: Promise<unknown>[] = [];
      const { grantId } = payload;
      if (grantId) {
        const { data, index } = this.grantKeys(grantId);
        const score = ttlMs ? String(Date.now() + ttlMs) : '+inf';
        writes.push(redis.cgUpsert(2, data(id), index, json, ttlMs, score, id, Date.now()));
        // The locator lives in the instance's own slot: a separate single-key script.
        writes.push(redis.cgLocate(1, this.locatorKey(id), grantId, ttlMs));
      } else {
        writes.push(redis.cgUpsert(1, this.locatorKey(id), json, ttlMs, 0, id, 0));
      }
      const lookup = (key: string) => writes.push(ttlMs ? redis.set(key, id, 'PX', ttlMs) : redis.set(key, id));
      if (payload.uid) lookup(`${prefix}:${this.name}:uid:{${payload.uid}}`);
      if (payload.userCode) lookup(`${prefix}:${this.name}:uc:{${payload.userCode}}`);
      await Promise.all(writes);
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const located = await this.dataKey(id);
      if (!located) return undefined;
      const fields = located.fields ?? (await redis.hgetall(located.key));
      if (fields.p === undefined) return undefined; // revoked or expired meanwhile
      const payload = JSON.parse(fields.p) as AdapterPayload;
      if (!fields.c) return payload;
      // Rotated, but never acknowledged by the replicas: as if rotated just now (within the grace window).
      const unacknowledged = fields.n !== undefined && (JSON.parse(fields.n) as { u?: number }).u === 1;
      return { ...payload, consumed: unacknowledged ? nowSeconds() : Number(fields.c) };
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const id = await redis.get(`${prefix}:${this.name}:uid:{${uid}}`);
      const found = id ? await this.find(id) : undefined;
      // A lookup key left by an earlier save of the instance under another uid does not match.
      return found?.uid === uid ? found : undefined;
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      const id = await redis.get(`${prefix}:${this.name}:uc:{${userCode}}`);
      const found = id ? await this.find(id) : undefined;
      return found?.userCode === userCode ? found : undefined;
    }

    async consume(id: string): Promise<void> {
      const located = await this.dataKey(id);
      const won = located ? await redis.cgConsume(1, located.key, nowSeconds()) : 0;
      if (won !== 1 && CONSUMABLE.has(this.name)) {
        // Lost the race against a concurrent redemption, or the instance expired meanwhile.
        throw new errors.InvalidGrant('grant request is invalid');
      }
    }

    async destroy(id: string): Promise<void> {
      const locator = this.locatorKey(id);
      const fields = await redis.hgetall(locator);
      if (fields.g !== undefined) {
        const { data, index } = this.grantKeys(fields.g);
        await redis.cgRevoke(2, index, data(id), id);
      } else if (fields.p !== undefined) {
        const payload = JSON.parse(fields.p) as AdapterPayload;
        const extra: string[] = [];
        if (payload.uid) extra.push(`${prefix}:${this.name}:uid:{${payload.uid}}`);
        if (payload.userCode) extra.push(`${prefix}:${this.name}:uc:{${payload.userCode}}`);
        await Promise.all(extra.map((k) => redis.del(k)));
      }
      await redis.del(locator);
    }

    async rotateRefreshToken(
      oldId: string,
      newId: string,
      payload: AdapterPayload,
      expiresIn: number,
      policy: RotationPolicy,
      along?: SavedAlong,
    ): Promise<RotationOutcome> {
      const grantId = payload.grantId;
      if (!grantId) throw new Error('rotateRefreshToken: the successor names no grant');
      // The instance saved along goes into the script when it is bound to the same grant (same
      // slot) and has no lookup keys; otherwise it is upserted after a successful rotation.
      const folded =
        along && along.payload.grantId === grantId && !along.payload.uid && !along.payload.userCode ? along : undefined;
      const { data, index } = this.grantKeys(grantId);
      const ttlMs = expiresIn > 0 ? Math.ceil(expiresIn * 1000) : 0;
      const tombMs = Math.max(policy.tombstoneSeconds, policy.graceSeconds) * 1000;
      const newLocator = this.locatorKey(newId);
      const alongMs = folded && folded.expiresIn > 0 ? Math.ceil(folded.expiresIn * 1000) : 0;
      const alongLocator = folded ? `${prefix}:${folded.model}:{${folded.id}}` : undefined;
      if (cluster) {
        // The successors' locators first (their own slots): should the script below not run, they
        // point at nothing and find() answers "not found", as for any unknown token.
        const locate = (key: string, ms: number) => redis.cgLocate(1, key, grantId, ms);
        await Promise.all([locate(newLocator, ttlMs), alongLocator ? locate(alongLocator, alongMs) : undefined]);
      }
      const nowMs = Date.now();
      const alongGrantKeys = folded ? new RedisAdapter(folded.model).grantKeys(grantId) : undefined;
      const alongKeys = folded && alongGrantKeys ? [alongGrantKeys.data(folded.id), alongGrantKeys.index] : [];
      const alongArgs = folded
        ? [JSON.stringify(folded.payload), alongMs, alongMs ? String(nowMs + alongMs) : '+inf', folded.id]
        : [];
      // The instance saved `also` (no grant: its key is in its own slot) joins the script on a
      // standalone Redis only.
      const alsoFolded = folded?.also && !cluster && !folded.also.payload.grantId ? folded.also : undefined;
      if (alsoFolded) {
        alongKeys.push(new RedisAdapter(alsoFolded.model).locatorKey(alsoFolded.id));
        alongArgs.push(
          JSON.stringify(alsoFolded.payload),
          alsoFolded.expiresIn > 0 ? Math.ceil(alsoFolded.expiresIn * 1000) : 0,
        );
      }
      const record = JSON.stringify({
        r: newId,
        ...(along ? { a: along.id } : {}),
        ...(options.replicaAcks ? { u: 1 } : {}),
      });
      const accessPrefix = `${prefix}:{g:${grantId}}:AccessToken:`;
      const [answer, ...rest] = await redis.cgRotate(
        4 + alongKeys.length,
        data(oldId),
        data(newId),
        index,
        `${prefix}:{g:${grantId}}:${this.name}:rot`,
        ...alongKeys,
        JSON.stringify(payload),
        ttlMs,
        ttlMs ? String(nowMs + ttlMs) : '+inf',
        newId,
        nowMs,
        policy.graceSeconds,
        tombMs,
        policy.keepTombstones,
        oldId,
        Math.floor(nowMs / 1000),
        data(''),
        cluster ? '' : `${prefix}:${this.name}:{`,
        grantId,
        (!cluster && alongLocator) || '',
        record,
        accessPrefix,
        ...alongArgs,
      );
      const result = answer as RotationResult;
      let successor: RotatedSuccessor | undefined;
      if (result === 'grace') {
        const [refreshToken, accessId, accessPayload] = rest;
        successor = { refreshToken: refreshToken! };
        if (accessId && accessPayload)
          successor.accessToken = { id: accessId, payload: JSON.parse(accessPayload) as AdapterPayload };
        else if (along && !folded) {
          await new RedisAdapter(along.model).upsert(along.id, along.payload, along.expiresIn);
          successor.accessToken = { id: along.id, payload: along.payload };
        }
      }
      if (result === 'rotated' && along && !folded)
        await new RedisAdapter(along.model).upsert(along.id, along.payload, along.expiresIn);
      const outcome: RotationOutcome = successor ? { result, successor } : { result };
      const also = along?.also;
      if (also && !alsoFolded && savedAlong(outcome, along))
        await new RedisAdapter(also.model).upsert(also.id, also.payload, also.expiresIn);
      if (!cluster) return outcome;
      // Housekeeping outside the atomic step (other slots); a failure leaves only garbage that expires.
      const evicted = result === 'rotated' ? rest : [];
      const chores: Promise<unknown>[] = [];
      if (result === 'rotated') chores.push(redis.pexpire(this.locatorKey(oldId), tombMs, 'LT'));
      // No new refresh token unless rotated; the access token saved along only when it was recorded.
      if (result !== 'rotated') chores.push(redis.del(newLocator));
      if (result !== 'rotated' && alongLocator && successor?.accessToken?.id !== folded?.id)
        chores.push(redis.del(alongLocator));
      chores.push(...evicted.map((id) => redis.del(this.locatorKey(id))));
      await Promise.all(chores).catch(() => undefined);
      return outcome;
    }

    async acknowledgeRotation(oldId: string, successorId: string, grantId: string): Promise<void> {
      await redis.cgAcknowledge(1, this.grantKeys(grantId).data(oldId), successorId, nowSeconds());
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      if (this.name === 'RefreshToken') await redis.del(`${prefix}:{g:${grantId}}:${this.name}:rot`);
      const { data, index } = this.grantKeys(grantId);
      // Read a batch of members, delete them and their index entries atomically; repeat while a
      // concurrent upsert added more (the script reports what is left).
      for (let round = 0; round < 1000; round++) {
        const ids = await redis.zrange(index, '0', String(REVOKE_BATCH - 1));
        if (ids.length === 0) return;
        const left = await redis.cgRevoke(1 + ids.length, index, ...ids.map(data), ...ids);
        if (left === 0) return;
      }
    }
  };
}

/** Connection settings of {@link connectRedis}. */
export interface RedisConnection {
  /** `redis://[:password@]host:port[/db]` or `rediss://…` (TLS). */
  url?: string;
  /** Cluster seed nodes `host:port`; when given, a Cluster client is built (url gives auth/TLS). */
  clusterNodes?: string[];
  /**
   * Redis Sentinel (issue #28, DESIGN D12): the sentinels' `host:port`, the monitored primary's
   * name and the sentinels' own password; url then gives the data nodes' credentials, TLS and db.
   */
  sentinel?: { sentinels: string[]; name: string; password?: string };
}

/**
 * Replies of a node that cannot take this client's commands any more (issue #28): `READONLY` (the
 * node was demoted to a replica by a failover while this connection stayed open), `LOADING` (it is
 * reading its dataset after a restart) and `MASTERDOWN` (a replica lost its primary). The command
 * fails (answered 503 by src/errors/outage.ts) and the connection is dropped and made again, to
 * the current primary that the sentinels name (or the same address, for a proxy endpoint).
 */
export const RECONNECT_REPLY = /^(READONLY|LOADING|MASTERDOWN)\b/;

/** `reconnectOnError` of every client {@link connectRedis} builds: 1 = reconnect, fail the command. */
export function reconnectOnStaleNode(err: Error): 1 | false {
  return RECONNECT_REPLY.test(err.message) ? 1 : false;
}

/** `host:port` → ioredis address. */
const address = (n: string) => {
  const i = n.lastIndexOf(':');
  return { host: n.slice(0, i) || '127.0.0.1', port: Number(n.slice(i + 1) || 6379) };
};

/**
 * Builds an ioredis client that fails fast while Redis is unreachable (issue #14): once the first
 * connection is up, commands are no longer queued while disconnected (they reject at once with
 * "Stream isn't writeable…", a 503 in src/ops/store-outage.ts), and a command on a connection
 * that stopped answering gives up after 1 s. Until that first connection, commands wait in the
 * offline queue (start-up order does not matter). The client reconnects by itself every ≤ 500 ms,
 * so service is back within a second of Redis. A `READONLY`, `LOADING` or `MASTERDOWN` reply drops
 * the connection and makes it again ({@link reconnectOnStaleNode}); through Sentinel, to the primary
 * the sentinels name then.
 * @throws Error when neither `url`, `sentinel` nor `clusterNodes` is given
 */
export function connectRedis(connection: RedisConnection): RedisClient {
  const retryStrategy = (attempt: number) => Math.min(50 * 2 ** attempt, 500);
  // No auto-pipelining (issue #15, memory; docs/deployment.md §2 "Memory"): ioredis builds a
  // Pipeline per event-loop tick for it, whose per-instance `length` getter V8 keeps reachable from
  // old space until the next full collection, and with it every awaiting request (bench: 1.1 GB →
  // 0.17 GB promoted over introspection + UserInfo + /mcp). CPU per request: UserInfo −10 µs, bare
  // `AccessToken.find` −7 µs, `/mcp` +30 µs (its parallel reads go out as separate writes).
  const common = {
    maxRetriesPerRequest: 1,
    commandTimeout: 1000,
    retryStrategy,
    connectTimeout: 2000,
    lazyConnect: false,
    enableAutoPipelining: false,
    reconnectOnError: reconnectOnStaleNode,
  } as const;
  let client: RedisClient;
  if (connection.sentinel) {
    // Issue #28: ask the sentinels for the current primary at every (re)connection; ioredis checks
    // the node's role after connecting, and `failoverDetector` subscribes to `+switch-master` so a
    // planned failover moves this client at once instead of at its next error.
    const auth = connection.url ? new URL(connection.url) : undefined;
    const db = auth && auth.pathname.length > 1 ? Number(auth.pathname.slice(1)) : undefined;
    client = new Redis({
      ...common,
      sentinels: connection.sentinel.sentinels.map(address),
      name: connection.sentinel.name,
      role: 'master',
      sentinelPassword: connection.sentinel.password,
      password: auth?.password ? decodeURIComponent(auth.password) : undefined,
      username: auth?.username ? decodeURIComponent(auth.username) : undefined,
      db: Number.isInteger(db) ? db : undefined,
      tls: auth?.protocol === 'rediss:' ? {} : undefined,
      failoverDetector: true,
      sentinelRetryStrategy: retryStrategy,
      sentinelCommandTimeout: 1000,
    });
  } else if (connection.clusterNodes && connection.clusterNodes.length > 0) {
    const auth = connection.url ? new URL(connection.url) : undefined;
    const nodes = connection.clusterNodes.map(address);
    client = new Cluster(nodes, {
      clusterRetryStrategy: retryStrategy,
      redisOptions: {
        ...common,
        password: auth?.password ? decodeURIComponent(auth.password) : undefined,
        username: auth?.username ? decodeURIComponent(auth.username) : undefined,
        tls: auth?.protocol === 'rediss:' ? {} : undefined,
      },
    });
  } else {
    if (!connection.url) throw new Error('REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES is required');
    client = new Redis(connection.url, common);
  }
  // ioredis reads the option at each command, so switching it here takes effect at once.
  client.once('ready', () => {
    (client.options as { enableOfflineQueue?: boolean }).enableOfflineQueue = false;
  });
  keepConnecting(client, retryStrategy);
  return client;
}

/** Clients {@link closeRedis} is closing: their `end` is final. */
const closing = new WeakSet<RedisClient>();

/**
 * Makes an ended client connect again. ioredis gives up for good (status `end`, every command
 * "Connection is closed") not only when told to quit but also when a connection attempt rejects:
 * the Sentinel connector rejects when its failover detector, still subscribed from the lost
 * connection, sees `+switch-master` while the next attempt is asking a sentinel for the primary
 * (ioredis 6.0.0 `SentinelConnector.connect`: "Connection is closed"); a Cluster ends when its
 * start-up nodes all fail at once. The same object connects again (the adapter and the rate
 * limiter hold it), after the retry delay, unless {@link closeRedis} is closing it.
 */
function keepConnecting(client: RedisClient, retryStrategy: (attempt: number) => number): void {
  let attempt = 0;
  client.on('ready', () => {
    attempt = 0;
  });
  client.on('end', () => {
    if (closing.has(client)) return;
    const timer = setTimeout(() => {
      if (closing.has(client) || client.status !== 'end') return;
      client.connect().catch(() => undefined); // a failed attempt ends it again: this runs again
    }, retryStrategy(++attempt));
    timer.unref();
  });
}

/**
 * Whether the client gave up connecting (status `end`) although it is not being closed: a fault
 * of this process's connection, not of Redis (/readyz answers 503 meanwhile; it is reconnecting).
 */
export function redisEnded(client: RedisClient): boolean {
  return client.status === 'end' && !closing.has(client);
}

/**
 * Closes a client built by {@link connectRedis} for good: `QUIT`, then the sentinel connections
 * (failover detector) that `QUIT` leaves open. Its `end` no longer reconnects.
 */
export async function closeRedis(client: RedisClient): Promise<void> {
  closing.add(client);
  await client.quit().catch(() => undefined);
  client.disconnect();
}
