/**
 * URLs of the one-time links (DESIGN D11). The token travels in the query string, never in the
 * path: the access log records paths only, so no token reaches a log.
 */

/** Path of the set-password page. */
export const SET_PASSWORD_PATH = '/set-password';

/** The link handed to a person: `BASE_URL/set-password?token=…`. */
export const setPasswordUrl = (baseUrl: string, token: string): string =>
  `${baseUrl}${SET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`;
