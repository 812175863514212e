/**
 * Errors of the member's own data operations (SPEC §1, §2.4). They carry a stable `code` that the
 * API layer passes on to clients unchanged (e.g. GraphQL `extensions.code`).
 */

/** Stable codes of the member-data rules. */
export type MemberDataErrorCode =
  /** The thing does not exist for this member at this site (no difference is made with "not yours"). */
  | 'NOT_FOUND'
  /** The member's access to the course has expired (`expireDate` in the past). */
  | 'ACCESS_EXPIRED'
  /** An input value breaks a documented rule (range, format, length). */
  | 'BAD_USER_INPUT';

/** A refusal of a member-data rule, with a stable `code` (see MemberDataErrorCode). */
export class MemberDataError extends Error {
  override name = 'MemberDataError';
  constructor(
    readonly code: MemberDataErrorCode,
    message: string,
  ) {
    super(message);
  }
}
