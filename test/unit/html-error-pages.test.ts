/**
 * Issue 30 item 9: the html surface (src/errors/surfaces/html.ts) turns oidc-provider's developer
 * texts into sentences for the person in the browser and titles each page by what happened.
 */
import { humanText } from '../../src/errors/surfaces/html.js';
import { errorTitle } from '../../src/interaction/templates.js';

describe('error texts for people', () => {
  test.each([
    ['client is invalid', 'not registered with this server'],
    ["redirect_uri did not match any of the client's registered redirect_uris", 'an address it has not registered'],
    ["missing required parameter 'response_type'", '"response_type" is missing'],
    ['interaction session id cookie not found', 'expired or was opened in another browser'],
    ['no resource at /nope', 'There is no page at /nope.'],
  ])('%s → %s', (engine, human) => {
    expect(humanText(engine)).toContain(human);
    expect(humanText(engine)).not.toContain(engine);
  });

  test('texts already written for people pass through', () => {
    const text = 'The form has expired or did not come from this site. Go back, reload the page and try again.';
    expect(humanText(text)).toBe(text);
  });

  test.each([
    [404, 'not_found', 'no resource at /x', 'Page not found'],
    [
      403,
      'access_denied',
      'You need an owner or admin role at this site to open its admin area.',
      'You cannot do this here',
    ],
    [
      400,
      'invalid_request',
      'This sign-in session has expired or was opened in another browser.',
      'This link or page has expired',
    ],
    [400, 'invalid_client', 'client is invalid', 'This application cannot sign you in'],
    [429, 'too_many_requests', 'Too many failed sign-ins.', 'Too many attempts'],
    [500, 'server_error', '', 'Something went wrong on our side'],
    [400, 'invalid_request', 'Choose Allow or Deny.', 'This request could not be completed'],
  ])('%i %s (%s) → "%s"', (status, code, description, title) => {
    expect(errorTitle(status, code, description)).toBe(title);
  });
});
