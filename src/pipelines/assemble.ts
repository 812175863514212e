/**
 * Columns that produce steps (issue #27 part 2; DESIGN D7): a route-table row
 * (src/http/route-table.ts) is not only read, it decides steps of its pipeline. A family
 * (./oauth.ts, ./resource.ts, …) declares only the steps that are its own; `assemblePipelines`
 * places the steps the row's columns produce around them, in this order:
 *
 *   limitBody                         ← `body` (every row but those that answer 413 themselves)
 *   limitByClient | limitByIp | offerFailureCount   ← `rateLimit` (`client+ip` | `ip` | `on: 'failure'`)
 *   …the family's public page steps   (a page a browser asks for without a token: GraphiQL in development)
 *   authenticateBearer(scopes)        ← `auth: bearer` (not `anonymous`)
 *   shareLoop                         ← `loop: 'operator'` (issue #29: operator requests take their
 *                                       share of the event loop, src/http/operator-share.ts)
 *   answerOutageAs503, explainMetadataFailure   ← `owner: 'provider'` (prelude)
 *   …the family's steps
 *   handToProvider                    ← `owner: 'provider'` (postlude)
 *
 * `checkPipeline` states the same rules the other way round, on a built pipeline, so that
 * test/unit/route-pipelines.test.ts can hold every pipeline the app builds against its row.
 */
import { ROUTE_TABLE, type BearerAuthentication, type RouteSpec } from '../http/route-table.js';
import type { Pipeline, Pipelines, Step } from './pipeline.js';

/** What a column step stands for, so a built pipeline can be read against its row. */
export type ColumnTag =
  | { column: 'body' }
  | { column: 'rateLimit'; key: 'client+ip' | 'ip' | 'account+ip' }
  | { column: 'auth'; scopes: readonly string[]; challengeScope?: string }
  | { column: 'owner'; part: 'prelude' | 'postlude' }
  /** A family's step that answers a public page before the row's authentication. */
  | { column: 'public' }
  | { column: 'loop' };

const TAGS = new WeakMap<Step, ColumnTag>();

/** Marks `step` as produced by a column (returns it). */
export function tagColumnStep<S extends Step>(step: S, tag: ColumnTag): S {
  TAGS.set(step, tag);
  return step;
}

/** The column a step was produced by, if any. */
export function columnOf(step: Step): ColumnTag | undefined {
  return TAGS.get(step);
}

/** The column steps, built once (./steps.ts `sharedSteps`). */
export interface ColumnSteps {
  limitBody: Step;
  limitByClient: Step;
  limitByIp: Step;
  offerFailureCount: Step;
  /** A bearer step requiring the row's scopes (built once per row). */
  authenticateBearer(auth: BearerAuthentication, row: RouteSpec): Step;
  answerOutageAs503: Step;
  explainMetadataFailure: Step;
  handToProvider: Step;
  /** Waits for the operators' share of the event loop (rows with `loop: 'operator'`). */
  shareLoop: Step;
}

/** A family's declared pipeline with steps that answer before the row's authentication. */
export function withPublicPage(page: Step, declared: Pipeline): Pipeline {
  return { ...declared, publicSteps: [tagColumnStep(page, { column: 'public' })] };
}

function rateLimitStep(spec: RouteSpec, columns: ColumnSteps): Step | undefined {
  const policy = spec.rateLimit;
  if (!policy) return undefined;
  if (policy.on === 'failure') {
    if (policy.limit !== 'loginFailures')
      throw new Error(`route ${spec.name}: only the loginFailures limit counts failures`);
    return columns.offerFailureCount;
  }
  if (policy.key === 'client+ip') return columns.limitByClient;
  if (policy.key === 'ip') return columns.limitByIp;
  throw new Error(`route ${spec.name}: key ${policy.key} is counted on failure only (on: 'failure')`);
}

/** The full step list of one row: its column steps around the family's declared steps. */
export function assemble(spec: RouteSpec, declared: Pipeline, columns: ColumnSteps): Pipeline {
  const steps: Step[] = [];
  if (!spec.body?.ownTooLarge) steps.push(columns.limitBody);
  const limit = rateLimitStep(spec, columns);
  if (limit) steps.push(limit);
  steps.push(...(declared.publicSteps ?? []));
  if (spec.auth.kind === 'bearer' && !spec.auth.anonymous) steps.push(columns.authenticateBearer(spec.auth, spec));
  // After the bearer step: an anonymous or unauthorized call is refused at once, never queued.
  if (spec.loop === 'operator') steps.push(columns.shareLoop);
  if (spec.owner === 'provider') steps.push(columns.answerOutageAs503, columns.explainMetadataFailure);
  steps.push(...declared.steps);
  if (spec.owner === 'provider') steps.push(columns.handToProvider);
  return { steps, methods: declared.methods };
}

/**
 * Every row's pipeline: the family's declared steps with the row's column steps placed around them.
 * A row name shared by two rows (`discovery`) is assembled once, from its first row.
 * @throws Error when a row has no declared pipeline (`dispatch` checks the converse)
 */
export function assemblePipelines(
  declared: Pipelines,
  columns: ColumnSteps,
  table: readonly RouteSpec[] = ROUTE_TABLE,
): Pipelines {
  const out: Pipelines = {};
  for (const spec of table) {
    if (out[spec.name]) continue;
    const own = declared[spec.name];
    if (!own) throw new Error(`route ${spec.name} (${spec.path}) has no pipeline`);
    out[spec.name] = assemble(spec, own, columns);
  }
  for (const name of Object.keys(declared)) if (!out[name]) out[name] = declared[name]!;
  return out;
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().every((v, i) => v === [...b].sort()[i]);

/**
 * What is wrong with a built pipeline, read against its row (empty: it enforces what the row
 * declares). Rules: a bearer row (not `anonymous`) has exactly one bearer step, with the row's
 * scopes, and nothing but body, limit and public-page steps before it; a row without bearer
 * auth has none; the row's rate limit has exactly its step (`client+ip` → `limitByClient`, `ip` →
 * `limitByIp`, `on: 'failure'` → `offerFailureCount`) and a row without one has none; a provider
 * row has the prelude before any step of its family and ends in `handToProvider`, an app row has
 * neither; every row but those that answer 413 themselves starts with `limitBody`; an operator row
 * (`loop: 'operator'`) has exactly one `shareLoop`, after its bearer step, and no other row has one.
 */
export function checkPipeline(spec: RouteSpec, built: Pipeline): string[] {
  const problems: string[] = [];
  const tags = built.steps.map((s) => columnOf(s));
  const name = spec.name;
  // body
  const bodySteps = tags.filter((t) => t?.column === 'body').length;
  if (spec.body?.ownTooLarge ? bodySteps !== 0 : tags[0]?.column !== 'body' || bodySteps !== 1) {
    problems.push(
      `${name}: ${spec.body?.ownTooLarge ? 'answers 413 itself, yet has the body step' : 'does not start with the body step limitBody'}`,
    );
  }
  // rateLimit
  const limits = tags
    .filter((t): t is Extract<ColumnTag, { column: 'rateLimit' }> => t?.column === 'rateLimit')
    .map((t) => t.key);
  const wanted = spec.rateLimit ? [spec.rateLimit.on === 'failure' ? 'account+ip' : spec.rateLimit.key] : [];
  if (!sameList(limits, wanted))
    problems.push(`${name}: rate-limit steps [${limits.join(', ')}] but the row declares [${wanted.join(', ')}]`);
  // auth
  const authAt = tags.flatMap((t, i) => (t?.column === 'auth' ? [i] : []));
  if (spec.auth.kind === 'bearer' && !spec.auth.anonymous) {
    if (authAt.length !== 1)
      problems.push(
        `${name}: a bearer row needs exactly one bearer step (has ${authAt.length}); it would serve anonymous callers`,
      );
    else {
      const tag = tags[authAt[0]!] as Extract<ColumnTag, { column: 'auth' }>;
      if (!sameList(tag.scopes, spec.auth.scopes ?? []))
        problems.push(
          `${name}: bearer step requires [${tag.scopes.join(' ')}] but the row declares [${(spec.auth.scopes ?? []).join(' ')}]`,
        );
      const early = tags
        .slice(0, authAt[0])
        .filter((t) => !t || (t.column !== 'body' && t.column !== 'rateLimit' && t.column !== 'public'));
      if (early.length > 0) problems.push(`${name}: ${early.length} step(s) run before the bearer step`);
    }
  } else if (authAt.length > 0) {
    problems.push(
      `${name}: has a bearer step but the row's auth is ${spec.auth.kind}${spec.auth.kind === 'bearer' ? ' (anonymous)' : ''}`,
    );
  }
  // loop
  const loopAt = tags.flatMap((t, i) => (t?.column === 'loop' ? [i] : []));
  if (spec.loop === 'operator') {
    // Placed after the bearer step: the bearer rule above reports a shareLoop that runs before it.
    if (loopAt.length !== 1) problems.push(`${name}: an operator row needs exactly one shareLoop step`);
  } else if (loopAt.length > 0) {
    problems.push(`${name}: has a shareLoop step but the row is not an operator row`);
  }
  // owner
  const prelude = tags.flatMap((t, i) => (t?.column === 'owner' && t.part === 'prelude' ? [i] : []));
  const postlude = tags.flatMap((t, i) => (t?.column === 'owner' && t.part === 'postlude' ? [i] : []));
  if (spec.owner === 'provider') {
    const firstOwn = tags.findIndex((t) => !t);
    if (prelude.length !== 2 || (firstOwn >= 0 && prelude.some((i) => i > firstOwn)))
      problems.push(
        `${name}: a provider row needs the prelude answerOutageAs503, explainMetadataFailure before its own steps`,
      );
    if (postlude.length !== 1 || postlude[0] !== tags.length - 1)
      problems.push(`${name}: a provider row ends in handToProvider`);
  } else if (prelude.length + postlude.length > 0) {
    problems.push(`${name}: an app row has provider steps`);
  }
  return problems;
}
