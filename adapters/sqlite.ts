/**
 * oidc-provider adapter on the embedded SQLite store (DESIGN.md §1).
 *
 * Implements the adapter interface of oidc-provider 9 (`example/my_adapter.js`): one row per
 * model instance, `expires_at` in epoch seconds, indexes on grant id and session uid so that
 * `revokeByGrantId` and `findByUid` touch only the rows they return.
 *
 * `consume` is an atomic compare-and-set (`UPDATE … WHERE consumed_at IS NULL`): of N concurrent
 * redemptions of one authorization code or refresh token exactly one succeeds; the others get
 * `invalid_grant` (RFC 6749 §5.2) instead of a second set of tokens.
 */
import type Database from 'better-sqlite3';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import {
  withinGrace,
  type RefreshRotation,
  type RotatedSuccessor,
  type RotationOutcome,
  type RotationPolicy,
  type SavedAlong,
} from './rotation.js';
import { stablePlan } from './sqlite-plans.js';

/** Models whose instances can be consumed (used once). */
const CONSUMABLE = new Set(['AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

/**
 * Token models whose payload is stored without the fields its row's key and columns already hold
 * (issue #15): `jti` (the `id` column), `kind` (`model`) and `grantId` (`grant_id`), ~125 of a
 * refresh or access token's ~400–450 bytes. Rows this small fit ~8.5 to a 4 KiB page instead of
 * ~6 (refresh bench: 5.9 → 8.5 rows per leaf), so the random inserts of a refresh split and
 * rebalance pages less often: fewer pages written per commit (WAL frames) and copied per checkpoint. Read back, the payload gets them again; rows
 * written by earlier versions carry them and are read as they are.
 */
const SLIM = new Set(['AccessToken', 'RefreshToken', 'AuthorizationCode']);

/** What a token model's row stores as `payload`: slim when its fields match the row (see {@link SLIM}). */
function storedPayload(model: string, id: string, payload: AdapterPayload): string {
  if (!SLIM.has(model) || payload.jti !== id || payload.kind !== model) return JSON.stringify(payload);
  const { jti: _jti, kind: _kind, grantId: _grantId, ...rest } = payload;
  return JSON.stringify(rest);
}

/**
 * Creates the adapter table and its indexes; idempotent, and migrates files of earlier versions
 * (their rows stay readable, rotatable and revocable).
 */
export function createOidcTable(sqlite: Database.Database): void {
  sqlite.exec(`
    CREATE TABLE IF NOT EXISTS oidc_models (
      model TEXT NOT NULL,
      id TEXT NOT NULL,
      payload TEXT NOT NULL,
      grant_id TEXT,
      uid TEXT,
      user_code TEXT,
      expires_at INTEGER,
      consumed_at INTEGER,
      PRIMARY KEY (model, id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS oidc_models_uid ON oidc_models (uid) WHERE uid IS NOT NULL;
    CREATE INDEX IF NOT EXISTS oidc_models_user_code ON oidc_models (user_code) WHERE user_code IS NOT NULL;
    CREATE INDEX IF NOT EXISTS oidc_models_expiry ON oidc_models (expires_at) WHERE expires_at IS NOT NULL;
  `);
  // Rotation order of a grant's refresh-token tombstones (DESIGN D3, issue #14); added to older files.
  const columns = sqlite.prepare(`SELECT name FROM pragma_table_info('oidc_models')`).all() as { name: string }[];
  if (!columns.some((c) => c.name === 'rotated_seq'))
    sqlite.exec('ALTER TABLE oidc_models ADD COLUMN rotated_seq INTEGER');
  // The successor a tombstone answers again within the grace window (issue #25 finding 5): JSON
  // `{"r": refresh token id, "a": access token id}`, cleared once the window is over.
  if (!columns.some((c) => c.name === 'successor')) sqlite.exec('ALTER TABLE oidc_models ADD COLUMN successor TEXT');
  // One index for everything read by grant (issue #15): revokeByGrantId (grant, model) and the
  // rotation's tombstone queries (grant, 'RefreshToken', rotation order, consumed or not) read it
  // alone, without visiting the table. It replaces two indexes of earlier versions, on
  // (grant_id) and on (grant_id, rotated_seq) for consumed refresh tokens: a rotation wrote a leaf
  // of each (one WAL frame per page and commit), now one.
  sqlite.exec(`
    CREATE INDEX IF NOT EXISTS oidc_models_by_grant ON oidc_models (grant_id, model, rotated_seq, consumed_at) WHERE grant_id IS NOT NULL;
    DROP INDEX IF EXISTS oidc_models_grant;
    DROP INDEX IF EXISTS oidc_models_tombstones;
  `);
}

interface Row {
  id: string;
  payload: string;
  grant_id: string | null;
  consumed_at: number | null;
}

const now = () => Math.floor(Date.now() / 1000);

/**
 * Builds the adapter class oidc-provider instantiates once per model name.
 * @param sqlite an open database on which `createOidcTable` has run
 */
export function sqliteAdapterFactory(sqlite: Database.Database): new (name: string) => Adapter & RefreshRotation {
  createOidcTable(sqlite);
  // Plans made once, not per run (sqlite-plans.ts: a bound `model` compared with the tombstone
  // index's `model = 'RefreshToken'` would re-prepare the statement on every call).
  const prepare = <P extends unknown[] | {} = unknown[], R = unknown>(source: string) =>
    sqlite.prepare<P, R>(stablePlan(source));
  const upsert = prepare(
    `INSERT INTO oidc_models (model, id, payload, grant_id, uid, user_code, expires_at, consumed_at)
     VALUES (@model, @id, @payload, @grant_id, @uid, @user_code, @expires_at, NULL)
     ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
       uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at, consumed_at = NULL`,
  );
  const find = prepare<[string, string, number], Row>(
    `SELECT id, payload, grant_id, consumed_at FROM oidc_models WHERE model = ? AND id = ? AND (expires_at IS NULL OR expires_at > ?)`,
  );
  const findByUid = prepare<[string, string, number], Row>(
    `SELECT id, payload, grant_id, consumed_at FROM oidc_models WHERE model = ? AND uid = ? AND (expires_at IS NULL OR expires_at > ?)`,
  );
  const findByUserCode = prepare<[string, string, number], Row>(
    `SELECT id, payload, grant_id, consumed_at FROM oidc_models WHERE model = ? AND user_code = ? AND (expires_at IS NULL OR expires_at > ?)`,
  );
  const consume = prepare(`UPDATE oidc_models SET consumed_at = ? WHERE model = ? AND id = ? AND consumed_at IS NULL`);
  const destroy = prepare(`DELETE FROM oidc_models WHERE model = ? AND id = ?`);
  // Named: without table statistics the planner would walk the primary key's rows of the model.
  const revokeByGrantId = prepare(
    `DELETE FROM oidc_models INDEXED BY oidc_models_by_grant WHERE grant_id = ? AND model = ?`,
  );

  /** `upsert`'s parameters for one instance (`t`: now, epoch seconds). */
  const row = (model: string, id: string, payload: AdapterPayload, expiresIn: number | undefined, t: number) => ({
    model,
    id,
    payload: storedPayload(model, id, payload),
    grant_id: payload.grantId ?? null,
    uid: payload.uid ?? null,
    user_code: payload.userCode ?? null,
    expires_at: expiresIn ? t + expiresIn : null,
  });
  const rotate = rotationStatement(
    sqlite,
    prepare,
    (...args) => upsert.run(row(...args)),
    (model, id) => parse(model, find.get(model, id, now())),
  );

  /** The payload of `row` of model `model`, with what a slim row leaves to its columns (see {@link SLIM}). */
  const parse = (model: string, row: Row | undefined): AdapterPayload | undefined => {
    if (!row) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    if (payload.jti === undefined && SLIM.has(model)) {
      payload.jti = row.id;
      payload.kind = model;
      if (row.grant_id !== null) payload.grantId = row.grant_id;
    }
    return row.consumed_at ? { ...payload, consumed: row.consumed_at } : payload;
  };

  return class SqliteAdapter implements Adapter, RefreshRotation {
    constructor(private readonly name: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      upsert.run(row(this.name, id, payload, expiresIn, now()));
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return parse(this.name, find.get(this.name, id, now()));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return parse(this.name, findByUid.get(this.name, uid, now()));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return parse(this.name, findByUserCode.get(this.name, userCode, now()));
    }

    async consume(id: string): Promise<void> {
      const { changes } = consume.run(now(), this.name, id);
      if (changes === 0 && CONSUMABLE.has(this.name)) {
        // Lost the race against a concurrent redemption (or the row expired meanwhile).
        throw new errors.InvalidGrant('grant request is invalid');
      }
    }

    async destroy(id: string): Promise<void> {
      destroy.run(this.name, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      revokeByGrantId.run(grantId, this.name);
    }

    async rotateRefreshToken(
      oldId: string,
      newId: string,
      payload: AdapterPayload,
      expiresIn: number,
      policy: RotationPolicy,
      along?: SavedAlong,
    ): Promise<RotationOutcome> {
      return rotate(oldId, newId, payload, expiresIn, policy, along);
    }
  };
}

interface RotatedRow {
  consumed_at: number | null;
  successor: string | null;
}

/** The `successor` column's JSON (issue #25 finding 5). */
interface SuccessorRecord {
  r: string;
  a?: string;
}

/**
 * DESIGN D3 rotation (adapters/rotation.ts) as one SQLite transaction: the successor row and the
 * old row's consumption commit together or not at all (a crash in between rolls both back), and
 * with them the instance saved `along` (the access token: one commit per refresh, not two) and the
 * successor record on the old row (`successor`). A replay within the grace window reads that
 * record in the same transaction and writes nothing new (issue #25 finding 5: one chain), so of
 * N concurrent rotations of one token exactly one saves a successor and all answer it.
 * (A replayed access token keeps its DPoP binding, `cnf.jkt`: the refresh token's holder proved the
 * same key, which oidc-provider checks against the rotated token before the rotation runs.)
 */
function rotationStatement(
  sqlite: Database.Database,
  prepare: <P extends unknown[] | {}, R>(source: string) => Database.Statement<P, R>,
  save: (model: string, id: string, payload: AdapterPayload, expiresIn: number | undefined, t: number) => void,
  lookup: (model: string, id: string) => AdapterPayload | undefined,
) {
  // Read only when `entomb` changed nothing: the token was rotated before (grace or reuse) or is gone.
  const read = prepare<[string, number], RotatedRow>(
    `SELECT consumed_at, successor FROM oidc_models WHERE model = 'RefreshToken' AND id = ? AND (expires_at IS NULL OR expires_at > ?)`,
  );
  // Grace-window replay (issue #25 finding 5): the recorded successor must still exist.
  const stillStored = prepare<[string, number], { found: number }>(
    `SELECT 1 AS found FROM oidc_models WHERE model = 'RefreshToken' AND id = ? AND (expires_at IS NULL OR expires_at > ?)`,
  );
  const record = prepare<[string, string], unknown>(
    `UPDATE oidc_models SET successor = ? WHERE model = 'RefreshToken' AND id = ?`,
  );
  // A grant's tombstones are its consumed refresh tokens: in oidc_models_by_grant they follow the
  // live ones (rotated_seq NULL sorts first) in rotation order, and every condition below is on the
  // index's columns, so none of these statements reads a table row it does not change. Each names
  // the index: without table statistics (no ANALYZE) the planner might prefer the primary key.
  // `entomb` is the common case in one statement (issue #15: no read before it): a live token
  // becomes the grant's newest tombstone, its life cut to `until` unless it ends sooner.
  const entomb = prepare(
    `UPDATE oidc_models SET consumed_at = @t, expires_at = CASE WHEN expires_at IS NULL OR expires_at > @until THEN @until ELSE expires_at END,
       successor = @successor, rotated_seq = 1 + coalesce(
       (SELECT rotated_seq FROM oidc_models INDEXED BY oidc_models_by_grant WHERE grant_id = @grant AND model = 'RefreshToken' AND consumed_at IS NOT NULL
          ORDER BY rotated_seq DESC LIMIT 1), 0)
     WHERE model = 'RefreshToken' AND id = @id AND consumed_at IS NULL AND (expires_at IS NULL OR expires_at > @t)`,
  );
  // Tombstones of the grant beyond the newest `keep` and past the grace window (the live tokens
  // have consumed_at NULL): the sequence number of the (keep + 1)-th newest bounds them (rows of older files have none: NULL
  // sorts last and they go first). A grant with at most `keep` tombstones has no such row.
  const trim = prepare(
    `DELETE FROM oidc_models INDEXED BY oidc_models_by_grant WHERE grant_id = @grant AND model = 'RefreshToken' AND consumed_at IS NOT NULL
       AND (rotated_seq IS NULL OR rotated_seq <= @cutoff) AND (@grace <= 0 OR consumed_at < @fresh)`,
  );
  const trimCutoff = prepare<{ grant: string; keep: number }, { rotated_seq: number | null }>(
    `SELECT rotated_seq FROM oidc_models INDEXED BY oidc_models_by_grant WHERE grant_id = @grant AND model = 'RefreshToken' AND consumed_at IS NOT NULL
       ORDER BY rotated_seq DESC LIMIT 1 OFFSET @keep`,
  );
  // Tombstones past the grace window keep only what reuse detection reads (oidc-provider's
  // refresh_token grant: jti, kind, iat, exp, clientId, accountId, grantId, scope), slim (SLIM:
  // jti, kind and grantId are the row's id, model and grant_id, added back when read). The index
  // answers `consumed_at < @cutoff`: only tombstones past the window have their payload read.
  const shrink = prepare(
    `UPDATE oidc_models INDEXED BY oidc_models_by_grant SET payload = json_object('iat', payload->>'$.iat',
       'exp', payload->>'$.exp', 'clientId', payload->>'$.clientId', 'accountId', payload->>'$.accountId',
       'scope', payload->>'$.scope', 'tombstone', json('true')), successor = NULL
     WHERE grant_id = @grant AND model = 'RefreshToken' AND consumed_at IS NOT NULL AND consumed_at < @cutoff
       AND payload->>'$.tombstone' IS NULL`,
  );
  /** DESIGN D3 grace window: the successor recorded on `oldId`, answered again; `along` saved only when its access token is gone. */
  const replay = (oldId: string, recorded: string | null, t: number, along?: SavedAlong): RotationOutcome => {
    const successor = recorded ? (JSON.parse(recorded) as SuccessorRecord) : undefined;
    if (!successor || !stillStored.get(successor.r, t)) return { result: 'gone' };
    const answer: RotatedSuccessor = { refreshToken: successor.r };
    const access = successor.a ? lookup('AccessToken', successor.a) : undefined;
    if (access && successor.a) answer.accessToken = { id: successor.a, payload: access };
    else if (along) {
      save(along.model, along.id, along.payload, along.expiresIn, t);
      if (along.also) save(along.also.model, along.also.id, along.also.payload, along.also.expiresIn, t);
      record.run(JSON.stringify({ r: successor.r, a: along.id } satisfies SuccessorRecord), oldId);
      answer.accessToken = { id: along.id, payload: along.payload };
    }
    return { result: 'grace', successor: answer };
  };
  return sqlite.transaction(
    (
      oldId: string,
      newId: string,
      payload: AdapterPayload,
      expiresIn: number,
      policy: RotationPolicy,
      along?: SavedAlong,
    ): RotationOutcome => {
      const t = now();
      const until = t + Math.max(policy.tombstoneSeconds, policy.graceSeconds);
      const successor = JSON.stringify({ r: newId, ...(along ? { a: along.id } : {}) } satisfies SuccessorRecord);
      if (entomb.run({ t, until, grant: payload.grantId ?? null, id: oldId, successor }).changes === 0) {
        // Not a live token: already rotated (grace window or reuse), or gone.
        const old = read.get(oldId, t);
        if (!old || old.consumed_at === null) return { result: 'gone' };
        if (!withinGrace(old.consumed_at, t, policy.graceSeconds)) return { result: 'reused' };
        return replay(oldId, old.successor, t, along);
      }
      save('RefreshToken', newId, payload, expiresIn, t);
      if (along) save(along.model, along.id, along.payload, along.expiresIn, t);
      if (along?.also) save(along.also.model, along.also.id, along.also.payload, along.also.expiresIn, t);
      if (payload.grantId) {
        const beyond = trimCutoff.get({ grant: payload.grantId, keep: policy.keepTombstones });
        // Never a tombstone inside the grace window: a retry of its chain is answered from it
        // (DESIGN D3), however many other chains of the grant rotated meanwhile.
        if (beyond)
          trim.run({
            grant: payload.grantId,
            cutoff: beyond.rotated_seq,
            grace: policy.graceSeconds,
            fresh: t - policy.graceSeconds,
          });
        shrink.run({ grant: payload.grantId, cutoff: t - policy.graceSeconds });
      }
      return { result: 'rotated' };
    },
  );
}

/**
 * Deletes expired rows (kept `graceSeconds` past expiry, the provider's clock tolerance).
 * @returns the number of rows removed
 */
export function purgeExpired(sqlite: Database.Database, graceSeconds = 60): number {
  return sqlite
    .prepare('DELETE FROM oidc_models WHERE expires_at IS NOT NULL AND expires_at < ?')
    .run(now() - graceSeconds).changes;
}
