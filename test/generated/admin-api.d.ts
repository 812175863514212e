export interface paths {
    "/.well-known/openid-configuration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * OpenID Connect Discovery
         * @description OpenID Provider metadata (OpenID Connect Discovery 1.0 §4): endpoints, supported scopes, grant types and algorithms.
         */
        get: operations["getOpenIdConfiguration"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-authorization-server": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * RFC 8414 metadata
         * @description OAuth 2.0 authorization server metadata (RFC 8414 §3); lists every scope the server knows.
         */
        get: operations["getAuthorizationServerMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * RFC 9728 metadata
         * @description OAuth 2.0 protected resource metadata (RFC 9728 §3) of this resource (`/mcp`, `/account/graphql`, `/api/v1`): its authorization server and the scopes a client may ask for.
         */
        get: operations["getProtectedResourceMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * JWKS (ES256 id_token keys)
         * @description The public keys that sign ID tokens and JWT responses (RFC 7517 JWK Set), including the next key during a rotation.
         */
        get: operations["getJwks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/coursegate-scope-map.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Which scope unlocks which MCP tool, GraphQL field and admin operation (generated from the code)
         * @description The scope map: for every scope, its audience, the scopes it implies (`X:write` implies `X:read`) and the MCP tools, Account API fields and admin operations it unlocks (see the MCP guide).
         */
        get: operations["getScopeMap"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Authorization endpoint (browser redirect); authorization code + PKCE S256
         * @description Starts sign-in and consent in the browser (RFC 6749 §4.1, OAuth 2.1). `code_challenge` with `code_challenge_method=S256` is required (RFC 7636); `resource` names this server (RFC 8707). The answer is a redirect; errors about the client or redirect URI are shown as a page, others are sent to the redirect URI.
         */
        get: operations["authorize"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Token endpoint (authorization_code, refresh_token)
         * @description Exchanges an authorization code (with its PKCE `code_verifier`) or a refresh token for tokens (RFC 6749 §4.1.3, §6). Refresh tokens rotate on use. Clients authenticate in the form body (RFC 6749 §2.3.1): a confidential client sends `client_id` and `client_secret` (`client_secret_post`), a public client sends `client_id` alone; no HTTP security scheme applies.
         */
        post: operations["token"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * RFC 7009 revocation
         * @description Revokes an access or refresh token issued to the calling client (RFC 7009 §2); an unknown token is not an error. Clients authenticate in the form body (RFC 6749 §2.3.1): a confidential client sends `client_id` and `client_secret` (`client_secret_post`), a public client sends `client_id` alone; no HTTP security scheme applies.
         */
        post: operations["revokeToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth/introspect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * RFC 7662 introspection
         * @description Tells whether a token issued to the calling client is active, with its scope, audience and expiry (RFC 7662 §2). Clients authenticate in the form body (RFC 6749 §2.3.1): a confidential client sends `client_id` and `client_secret` (`client_secret_post`), a public client sends `client_id` alone; no HTTP security scheme applies.
         */
        post: operations["introspectToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * RFC 7591 client registration
         * @description Open dynamic client registration (RFC 7591 §3): no initial access token. An absent `token_endpoint_auth_method` registers a public client (`none`); each client kind may ask for its own scopes only (see the client registration guide).
         */
        post: operations["registerClient"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth/userinfo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * UserInfo (OpenID Connect Core §5.3)
         * @description Claims about the signed-in person (OpenID Connect Core §5.3): `sub`, plus `name` with `profile` and `email` with `email`. Accepts the same resource-bound access token as the APIs.
         */
        get: operations["getUserInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * RP-initiated logout (end_session_endpoint)
         * @description Signs the person out in the browser (OpenID Connect RP-Initiated Logout 1.0) after a confirmation page; `post_logout_redirect_uri` must be registered by the client.
         */
        get: operations["endSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/graphql": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Member Account API (GraphQL)
         * @description GraphQL over HTTP for the member’s own data: queries need `account:read`, mutations `account:write` (see the Account API guide and `/account/graphql/schema.graphql`).
         */
        post: operations["accountGraphql"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * MCP tool endpoint (Streamable HTTP, stateless, JSON-RPC 2.0)
         * @description Anonymous callers are served: no token is fine for `initialize`, `tools/list` and the public tools. A protected tool called without its scope answers 401 `invalid_token` or 403 `insufficient_scope` with `WWW-Authenticate` naming `resource_metadata` and the scope. `security` lists the anonymous requirement and the scope of each protected tool (any one of them). GET and DELETE answer 405 (no sessions, no server-initiated stream).
         */
        post: operations["mcp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/site": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The site of the token (id, name, MCP connections beta)
         * @description The site of the token (id, name, MCP connections beta). Needs an access token of an operator of the site (owner or admin role) with `school:read`. Also offered as the MCP tool `get_site`.
         */
        get: operations["getSite"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Rename the site or switch the MCP connections beta
         * @description Rename the site or switch the MCP connections beta. Needs an access token of an operator of the site (owner or admin role) with `school:write`. Also offered as the MCP tool `update_site`.
         */
        patch: operations["updateSite"];
        trace?: never;
    };
    "/api/v1/oauth-applications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * OAuth applications (member clients) of the site
         * @description OAuth applications (member clients) of the site. Needs an access token of an operator of the site (owner or admin role) with `school:read`.
         */
        get: operations["listOAuthApplications"];
        put?: never;
        /**
         * Create a member client (needs the MCP connections beta)
         * @description Create a member client (needs the MCP connections beta). Needs an access token of an operator of the site (owner or admin role) with `school:write`.
         */
        post: operations["createOAuthApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oauth-applications/{clientId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One member client of the site
         * @description One member client of the site. Needs an access token of an operator of the site (owner or admin role) with `school:read`.
         */
        get: operations["getOAuthApplication"];
        put?: never;
        post?: never;
        /**
         * Delete a member client (its grants and tokens end)
         * @description Revokes every grant members gave the application at your site (their access and refresh tokens are refused at once on every surface), then deletes it. 404 when it is not an application of your site.
         */
        delete: operations["deleteOAuthApplication"];
        options?: never;
        head?: never;
        /**
         * Rename a member client, change its redirect URIs or its scopes (its secret stays)
         * @description Rename a member client, change its redirect URIs or its scopes (its secret stays). Needs an access token of an operator of the site (owner or admin role) with `school:write`. Also offered as the MCP tool `update_oauth_application`.
         */
        patch: operations["updateOAuthApplication"];
        trace?: never;
    };
    "/api/v1/oauth-applications/{clientId}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Give a confidential member client a new secret (the old one stops working at once)
         * @description Answers the new secret, shown only here. 409 public_client for a public (PKCE-only) client.
         */
        post: operations["rotateOAuthApplicationSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/connected-grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Connected apps: every live grant at your site, newest first
         * @description Every grant members gave at your site (client, kind, user, scopes, created, last used), optionally of one client or one user, page by page.
         */
        get: operations["listConnectedGrants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/connected-grants/{grantId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke one grant: its access and refresh tokens are refused at once on every surface
         * @description Revoke one grant: its access and refresh tokens are refused at once on every surface. Needs an access token of an operator of the site (owner or admin role) with `school:write`. Also offered as the MCP tool `revoke_connected_grant`.
         */
        delete: operations["revokeConnectedGrant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/connected-grants/by-client/{clientId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke every grant of one client at your site (404 when it has none here)
         * @description Revoke every grant of one client at your site (404 when it has none here). Needs an access token of an operator of the site (owner or admin role) with `school:write`. Also offered as the MCP tool `revoke_client_grants`.
         */
        delete: operations["revokeClientGrants"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The audit trail of your site, newest first, filtered by client, user, kind and time
         * @description Registrations, consents, token issuance and refreshes, revocations, refused requests and operator actions at your site, kept for the configured retention. `from` is inclusive, `to` exclusive. Pages hold at most 100 events.
         */
        get: operations["listAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/courses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every course of your site (public or hidden) with lecture and enrollment counts, by title
         * @description Every course of your site (public or hidden) with lecture and enrollment counts, by title. Needs an access token of an operator of the site (owner or admin role) with `courses:read`. Also offered as the MCP tool `list_courses`.
         */
        get: operations["listCourses"];
        put?: never;
        /**
         * Create a course
         * @description Creates a course at your site. Slugs are 2–64 lower-case letters, digits or dashes and unique per site (409 when taken).
         */
        post: operations["createCourse"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/courses/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One course of your site
         * @description One course of your site. Needs an access token of an operator of the site (owner or admin role) with `courses:read`.
         */
        get: operations["getCourse"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a course's title, description or public visibility
         * @description Changes a course's title, description or public visibility. Omitted fields stay as they are. Send If-Match with the ETag of GET /api/v1/courses/{slug} to avoid lost updates.
         */
        patch: operations["updateCourse"];
        trace?: never;
    };
    "/api/v1/courses/{slug}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish a course (list it in the public catalogue)
         * @description Publish a course (list it in the public catalogue). Needs an access token of an operator of the site (owner or admin role) with `courses:write`. Also offered as the MCP tool `publish_course`.
         */
        post: operations["publishCourse"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/courses/{slug}/lectures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The lectures of a course in order, with ids and durations in seconds
         * @description The lectures of a course in order, with ids and durations in seconds. Needs an access token of an operator of the site (owner or admin role) with `curriculum:read`. Also offered as the MCP tool `get_curriculum`.
         */
        get: operations["getCurriculum"];
        put?: never;
        /**
         * Append a lecture to the end of a course curriculum
         * @description Append a lecture to the end of a course curriculum. Needs an access token of an operator of the site (owner or admin role) with `curriculum:write`. Also offered as the MCP tool `add_lecture`.
         */
        post: operations["addLecture"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/courses/{slug}/sections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The sections of a course in order, with the ids of their lectures
         * @description The sections of a course in order, with the ids of their lectures. Needs an access token of an operator of the site (owner or admin role) with `curriculum:read`.
         */
        get: operations["listSections"];
        put?: never;
        /**
         * Append a section (chapter) to a course
         * @description Append a section (chapter) to a course. Needs an access token of an operator of the site (owner or admin role) with `curriculum:write`.
         */
        post: operations["createSection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/lectures/{lectureId}/section": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Put a lecture into one of its course's sections
         * @description Put a lecture into one of its course's sections. Needs an access token of an operator of the site (owner or admin role) with `curriculum:write`.
         */
        put: operations["setLectureSection"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/lectures/{lectureId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a lecture and the students' playback progress in it (cannot be undone)
         * @description Delete a lecture and the students' playback progress in it (cannot be undone). Needs an access token of an operator of the site (owner or admin role) with `curriculum:write`. Also offered as the MCP tool `remove_lecture`.
         */
        delete: operations["removeLecture"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/students": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Enrollments at your site (student e-mail, course slug, expiry, active or expired), optionally of one course
         * @description Enrollments at your site (student e-mail, course slug, expiry, active or expired), optionally of one course. Needs an access token of an operator of the site (owner or admin role) with `students:read`. Also offered as the MCP tool `list_students`.
         */
        get: operations["listStudents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/courses/{courseSlug}/students/{email}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Enroll a member of your site in a course (or change the expiry of the enrollment)
         * @description Enrolls a person who already has a role at your site (invite others first) in a course, or changes the expiry of an enrollment. Give expiresAt or lifetimeAccess: true.
         */
        put: operations["enrollStudent"];
        post?: never;
        /**
         * Remove a student's enrollment in a course and their progress in it (cannot be undone)
         * @description Remove a student's enrollment in a course and their progress in it (cannot be undone). Needs an access token of an operator of the site (owner or admin role) with `students:write`. Also offered as the MCP tool `unenroll_student`.
         */
        delete: operations["unenrollStudent"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * People with a role at your site (owner, admin, instructor, student), by e-mail
         * @description People with a role at your site (owner, admin, instructor, student), by e-mail. Needs an access token of an operator of the site (owner or admin role) with `members:read`. Also offered as the MCP tool `list_members`.
         */
        get: operations["listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/members/{email}/roles/{role}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Give a member of your site a role
         * @description Gives a person who already has a role at your site another role (invite others). Only an owner grants owner; nobody raises their own roles.
         */
        put: operations["grantMemberRole"];
        post?: never;
        /**
         * Take a role away from a member of your site
         * @description Takes a role away. Only an owner removes owner; the last owner keeps it (409).
         */
        delete: operations["revokeMemberRole"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Invitations of your site, newest first, optionally of one status
         * @description Invitations of your site, newest first, optionally of one status. Needs an access token of an operator of the site (owner or admin role) with `members:read`. Also offered as the MCP tool `list_invitations`.
         */
        get: operations["listInvitations"];
        put?: never;
        /**
         * Invite someone to your site with a role
         * @description Invites an e-mail address with a role (only an owner invites an owner). Answers the one-time acceptUrl (valid 7 days) to hand to the invited person: they sign in, or create their account for that address, and accept. Nothing is revealed about whether the address has an account.
         */
        post: operations["createInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One invitation of your site
         * @description One invitation of your site. Needs an access token of an operator of the site (owner or admin role) with `members:read`.
         */
        get: operations["getInvitation"];
        put?: never;
        post?: never;
        /**
         * Withdraw a pending invitation (its link stops working)
         * @description Withdraw a pending invitation (its link stops working). Needs an access token of an operator of the site (owner or admin role) with `members:write`. Also offered as the MCP tool `revoke_invitation`.
         */
        delete: operations["revokeInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Orders at your site, newest first, optionally of one status (pending, paid, refunded, cancelled)
         * @description Orders at your site, newest first, optionally of one status (pending, paid, refunded, cancelled). Needs an access token of an operator of the site (owner or admin role) with `orders:read`. Also offered as the MCP tool `list_orders`.
         */
        get: operations["listOrders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/analytics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Counts of courses, members, enrollments, orders, paid revenue per currency, event registrations and active learners (30 days)
         * @description Counts of courses, members, enrollments, orders, paid revenue per currency, event registrations and active learners (30 days). Needs an access token of an operator of the site (owner or admin role) with `analytics:read`. Also offered as the MCP tool `site_analytics`.
         */
        get: operations["siteAnalytics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Events of your site by start time with the number of (not cancelled) registrations
         * @description Events of your site by start time with the number of (not cancelled) registrations. Needs an access token of an operator of the site (owner or admin role) with `events:read`. Also offered as the MCP tool `list_events`.
         */
        get: operations["listEvents"];
        put?: never;
        /**
         * Create an event (ISO 8601 times; endsAt after startsAt)
         * @description Create an event (ISO 8601 times; endsAt after startsAt). Needs an access token of an operator of the site (owner or admin role) with `events:write`. Also offered as the MCP tool `create_event`.
         */
        post: operations["createEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events/{eventId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One event of your site
         * @description One event of your site. Needs an access token of an operator of the site (owner or admin role) with `events:read`.
         */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        /**
         * Cancel (delete) an event with its registrations (cannot be undone)
         * @description Cancel (delete) an event with its registrations (cannot be undone). Needs an access token of an operator of the site (owner or admin role) with `events:write`. Also offered as the MCP tool `cancel_event`.
         */
        delete: operations["cancelEvent"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/coupons": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Coupons of your site with their discount, redemptions, expiry and whether they are active
         * @description Coupons of your site with their discount, redemptions, expiry and whether they are active. Needs an access token of an operator of the site (owner or admin role) with `coupons:read`. Also offered as the MCP tool `list_coupons`.
         */
        get: operations["listCoupons"];
        put?: never;
        /**
         * Create a percentage coupon
         * @description Creates a percentage coupon. Codes are 3–32 letters, digits, dashes or underscores (stored upper-case), unique per site (409 when taken).
         */
        post: operations["createCoupon"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/coupons/{code}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One coupon of your site
         * @description One coupon of your site. Needs an access token of an operator of the site (owner or admin role) with `coupons:read`.
         */
        get: operations["getCoupon"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/coupons/{code}/deactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop a coupon from being redeemed (it stays in the order history)
         * @description Stop a coupon from being redeemed (it stays in the order history). Needs an access token of an operator of the site (owner or admin role) with `coupons:write`. Also offered as the MCP tool `deactivate_coupon`.
         */
        post: operations["deactivateCoupon"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/appearance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The site theme: colours, logo and typography
         * @description The site theme: colours, logo and typography. Needs an access token of an operator of the site (owner or admin role) with `appearance:read`. Also offered as the MCP tool `get_appearance`.
         */
        get: operations["getAppearance"];
        /**
         * Replace the site theme (send If-Match to avoid lost updates)
         * @description Replace the site theme (send If-Match to avoid lost updates). Needs an access token of an operator of the site (owner or admin role) with `appearance:write`. Also offered as the MCP tool `set_appearance`.
         */
        put: operations["setAppearance"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/pages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Pages of your site, by slug, optionally of one status
         * @description Pages of your site, by slug, optionally of one status. Needs an access token of an operator of the site (owner or admin role) with `pages:read`. Also offered as the MCP tool `list_pages`.
         */
        get: operations["listPages"];
        put?: never;
        /**
         * Create a page (a draft until published)
         * @description Create a page (a draft until published). Needs an access token of an operator of the site (owner or admin role) with `pages:write`. Also offered as the MCP tool `create_page`.
         */
        post: operations["createPage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/pages/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One page of your site
         * @description One page of your site. Needs an access token of an operator of the site (owner or admin role) with `pages:read`.
         */
        get: operations["getPage"];
        put?: never;
        post?: never;
        /**
         * Delete a page (cannot be undone)
         * @description Delete a page (cannot be undone). Needs an access token of an operator of the site (owner or admin role) with `pages:write`. Also offered as the MCP tool `delete_page`.
         */
        delete: operations["deletePage"];
        options?: never;
        head?: never;
        /**
         * Change a page's title or body (send If-Match to avoid lost updates)
         * @description Change a page's title or body (send If-Match to avoid lost updates). Needs an access token of an operator of the site (owner or admin role) with `pages:write`.
         */
        patch: operations["updatePage"];
        trace?: never;
    };
    "/api/v1/pages/{slug}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish a page (idempotent)
         * @description Publish a page (idempotent). Needs an access token of an operator of the site (owner or admin role) with `pages:write`. Also offered as the MCP tool `publish_page`.
         */
        post: operations["publishPage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Posts of your site, newest first, optionally of one status
         * @description Posts of your site, newest first, optionally of one status. Needs an access token of an operator of the site (owner or admin role) with `posts:read`. Also offered as the MCP tool `list_posts`.
         */
        get: operations["listPosts"];
        put?: never;
        /**
         * Create a post (a draft until published)
         * @description Create a post (a draft until published). Needs an access token of an operator of the site (owner or admin role) with `posts:write`. Also offered as the MCP tool `create_post`.
         */
        post: operations["createPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/posts/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One post of your site
         * @description One post of your site. Needs an access token of an operator of the site (owner or admin role) with `posts:read`.
         */
        get: operations["getPost"];
        put?: never;
        post?: never;
        /**
         * Delete a post (cannot be undone)
         * @description Delete a post (cannot be undone). Needs an access token of an operator of the site (owner or admin role) with `posts:write`. Also offered as the MCP tool `delete_post`.
         */
        delete: operations["deletePost"];
        options?: never;
        head?: never;
        /**
         * Change a post's title or body (send If-Match to avoid lost updates)
         * @description Change a post's title or body (send If-Match to avoid lost updates). Needs an access token of an operator of the site (owner or admin role) with `posts:write`.
         */
        patch: operations["updatePost"];
        trace?: never;
    };
    "/api/v1/posts/{slug}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish a post (idempotent)
         * @description Publish a post (idempotent). Needs an access token of an operator of the site (owner or admin role) with `posts:write`. Also offered as the MCP tool `publish_post`.
         */
        post: operations["publishPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/lecturers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Lecturers of your site by name, optionally only those teaching one course
         * @description Lecturers of your site by name, optionally only those teaching one course. Needs an access token of an operator of the site (owner or admin role) with `lecturers:read`. Also offered as the MCP tool `list_lecturers`.
         */
        get: operations["listLecturers"];
        put?: never;
        /**
         * Create a lecturer profile (name, bio, photo URL, optionally an instructor of your site)
         * @description Create a lecturer profile (name, bio, photo URL, optionally an instructor of your site). Needs an access token of an operator of the site (owner or admin role) with `lecturers:write`. Also offered as the MCP tool `create_lecturer`.
         */
        post: operations["createLecturer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/lecturers/{lecturerId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One lecturer with the courses they teach
         * @description One lecturer with the courses they teach. Needs an access token of an operator of the site (owner or admin role) with `lecturers:read`. Also offered as the MCP tool `get_lecturer`.
         */
        get: operations["getLecturer"];
        put?: never;
        post?: never;
        /**
         * Delete a lecturer profile and its course assignments (the courses stay)
         * @description Delete a lecturer profile and its course assignments (the courses stay). Needs an access token of an operator of the site (owner or admin role) with `lecturers:write`.
         */
        delete: operations["deleteLecturer"];
        options?: never;
        head?: never;
        /**
         * Change a lecturer's name, bio, photo or linked instructor (send If-Match to avoid lost updates)
         * @description Change a lecturer's name, bio, photo or linked instructor (send If-Match to avoid lost updates). Needs an access token of an operator of the site (owner or admin role) with `lecturers:write`.
         */
        patch: operations["updateLecturer"];
        trace?: never;
    };
    "/api/v1/lecturers/{lecturerId}/courses/{courseSlug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Assign a lecturer to a course of your site (idempotent)
         * @description Assign a lecturer to a course of your site (idempotent). Needs an access token of an operator of the site (owner or admin role) with `lecturers:write`. Also offered as the MCP tool `assign_lecturer`.
         */
        put: operations["assignLecturer"];
        post?: never;
        /**
         * Remove a lecturer from a course (idempotent); answers the lecturer
         * @description Remove a lecturer from a course (idempotent); answers the lecturer. Needs an access token of an operator of the site (owner or admin role) with `lecturers:write`. Also offered as the MCP tool `unassign_lecturer`.
         */
        delete: operations["unassignLecturer"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/comments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Comments on lectures and posts of your site, newest first, optionally of one course, lecture or post
         * @description Comments on lectures and posts of your site, newest first, optionally of one course, lecture or post. Needs an access token of an operator of the site (owner or admin role) with `comments:read`. Also offered as the MCP tool `list_comments`.
         */
        get: operations["listComments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/comments/{commentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One comment with where it was written and by whom
         * @description One comment with where it was written and by whom. Needs an access token of an operator of the site (owner or admin role) with `comments:read`.
         */
        get: operations["getComment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/forms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Forms of your site by title, with field and submission counts
         * @description Forms of your site by title, with field and submission counts. Needs an access token of an operator of the site (owner or admin role) with `forms:read`. Also offered as the MCP tool `list_forms`.
         */
        get: operations["listForms"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/forms/{formId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One form with its fields
         * @description One form with its fields. Needs an access token of an operator of the site (owner or admin role) with `forms:read`. Also offered as the MCP tool `get_form`.
         */
        get: operations["getForm"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/forms/{formId}/submissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Submissions of a form, newest first, optionally only those since a time
         * @description Submissions of a form, newest first, optionally only those since a time. Needs an access token of an operator of the site (owner or admin role) with `forms:read`. Also offered as the MCP tool `list_form_submissions`.
         */
        get: operations["listFormSubmissions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a file (a course image or a PDF)
         * @description Uploads one file as multipart/form-data (part "file"). Accepted: PNG, JPEG, WebP, GIF images and PDF, judged by the bytes (magic number), not the declared type (415 otherwise); at most UPLOAD_MAX_BYTES (413). Answers the file with its URL and SHA-256.
         */
        post: operations["uploadFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/files/{fileId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One uploaded file of your site (its description and URL)
         * @description One uploaded file of your site (its description and URL). Needs an access token of an operator of the site (owner or admin role) with `storage:write`.
         */
        get: operations["getFile"];
        put?: never;
        post?: never;
        /**
         * Delete an uploaded file (its URL stops working; cannot be undone)
         * @description Delete an uploaded file (its URL stops working; cannot be undone). Needs an access token of an operator of the site (owner or admin role) with `storage:write`.
         */
        delete: operations["deleteFile"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/membership-plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Membership plans of your site, oldest first, optionally of one status (active, archived)
         * @description Membership plans of your site, oldest first, optionally of one status (active, archived). Needs an access token of an operator of the site (owner or admin role) with `membership_plans:read`. Also offered as the MCP tool `list_membership_plans`.
         */
        get: operations["listMembershipPlans"];
        put?: never;
        /**
         * Create a membership plan: a monthly or yearly price that includes some of your courses
         * @description Create a membership plan: a monthly or yearly price that includes some of your courses. Needs an access token of an operator of the site (owner or admin role) with `membership_plans:write`. Also offered as the MCP tool `create_membership_plan`.
         */
        post: operations["createMembershipPlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/membership-plans/{planId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One membership plan of your site
         * @description One membership plan of your site. Needs an access token of an operator of the site (owner or admin role) with `membership_plans:read`.
         */
        get: operations["getMembershipPlan"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a plan's name, price or included courses (send If-Match to avoid lost updates)
         * @description Change a plan's name, price or included courses (send If-Match to avoid lost updates). Needs an access token of an operator of the site (owner or admin role) with `membership_plans:write`.
         */
        patch: operations["updateMembershipPlan"];
        trace?: never;
    };
    "/api/v1/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Subscriptions at your site, newest first, optionally of one plan and/or status (active, past_due, cancelled)
         * @description Subscriptions at your site, newest first, optionally of one plan and/or status (active, past_due, cancelled). Needs an access token of an operator of the site (owner or admin role) with `subscriptions:read`. Also offered as the MCP tool `list_subscriptions`.
         */
        get: operations["listSubscriptions"];
        put?: never;
        /**
         * Put a member of your site on an active plan; the first period starts now
         * @description Subscribes a person who already has a role at your site (invite others first) to an active membership plan. 404 naming `email` when nobody with that e-mail has a role here; 409 when the plan is archived or the person already has a live subscription to it.
         */
        post: operations["createSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscriptions/{subscriptionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One subscription at your site
         * @description One subscription at your site. Needs an access token of an operator of the site (owner or admin role) with `subscriptions:read`.
         */
        get: operations["getSubscription"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscriptions/{subscriptionId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a subscription now (idempotent)
         * @description Cancel a subscription now (idempotent). Needs an access token of an operator of the site (owner or admin role) with `subscriptions:write`. Also offered as the MCP tool `cancel_subscription`.
         */
        post: operations["cancelSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/membership-plans/{planId}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a plan: nobody new can subscribe, current subscriptions go on (idempotent)
         * @description Archive a plan: nobody new can subscribe, current subscriptions go on (idempotent). Needs an access token of an operator of the site (owner or admin role) with `membership_plans:write`. Also offered as the MCP tool `archive_membership_plan`.
         */
        post: operations["archiveMembershipPlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/digital-products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Digital products of your site, oldest first, optionally only published (true) or unpublished (false)
         * @description Digital products of your site, oldest first, optionally only published (true) or unpublished (false). Needs an access token of an operator of the site (owner or admin role) with `digital_products:read`. Also offered as the MCP tool `list_digital_products`.
         */
        get: operations["listDigitalProducts"];
        put?: never;
        /**
         * Create a digital product (unpublished until published)
         * @description Create a digital product (unpublished until published). Needs an access token of an operator of the site (owner or admin role) with `digital_products:write`. Also offered as the MCP tool `create_digital_product`.
         */
        post: operations["createDigitalProduct"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/digital-products/{productId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One digital product of your site
         * @description One digital product of your site. Needs an access token of an operator of the site (owner or admin role) with `digital_products:read`.
         */
        get: operations["getDigitalProduct"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a product's name, price or file (send If-Match to avoid lost updates)
         * @description Change a product's name, price or file (send If-Match to avoid lost updates). Needs an access token of an operator of the site (owner or admin role) with `digital_products:write`.
         */
        patch: operations["updateDigitalProduct"];
        trace?: never;
    };
    "/api/v1/digital-products/{productId}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Put a digital product on sale (idempotent)
         * @description Put a digital product on sale (idempotent). Needs an access token of an operator of the site (owner or admin role) with `digital_products:write`. Also offered as the MCP tool `publish_digital_product`.
         */
        post: operations["publishDigitalProduct"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/digital-products/{productId}/unpublish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Take a digital product off sale (idempotent)
         * @description Take a digital product off sale (idempotent). Needs an access token of an operator of the site (owner or admin role) with `digital_products:write`. Also offered as the MCP tool `unpublish_digital_product`.
         */
        post: operations["unpublishDigitalProduct"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Error response of RFC 6749 §5.2 (also RFC 6750 §3 for bearer errors and RFC 7591 §3.2.2 for registration). */
        OAuthError: {
            error: string;
            error_description?: string;
        };
        Problem: {
            /** Format: uri */
            type: string;
            title: string;
            status: number;
            detail: string;
            /** @description Stable error code, e.g. not_found, conflict, insufficient_scope */
            error: string;
            error_description?: string;
            errors?: {
                /** @enum {unknown} */
                in: "body" | "query" | "path" | "header";
                /** @description RFC 6901 JSON pointer */
                pointer: string;
                detail: string;
            }[];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getOpenIdConfiguration: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OpenID Provider metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getAuthorizationServerMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description authorization server metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getProtectedResourceMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description protected resource metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getJwks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JWK Set */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/jwk-set+json": Record<string, never>;
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getScopeMap: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description scope map */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    authorize: {
        parameters: {
            query: {
                /** @description Always `code`. */
                response_type: string;
                /** @description The client identifier (a registered id or a client ID metadata document URL). */
                client_id: string;
                /** @description One of the client’s registered redirect URIs. */
                redirect_uri?: string;
                /** @description Space-delimited scopes (RFC 6749 §3.3); defaults to the client’s default scope set. */
                scope?: string;
                /** @description The protected resource the token is for (RFC 8707). */
                resource?: string;
                /** @description PKCE code challenge (RFC 7636 §4.2). */
                code_challenge: string;
                /** @description Always `S256`. */
                code_challenge_method: string;
                /** @description Opaque value returned to the client. */
                state?: string;
                /** @description OpenID Connect nonce, copied into the ID token. */
                nonce?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description response_mode=form_post: a page that posts code, state and iss to redirect_uri */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description redirect to the sign-in page or to redirect_uri with code, state and iss (RFC 9207), or with error */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid client_id or redirect_uri: an error page, no redirect (RFC 6749 §4.1.2.1) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    token: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    /** @enum {unknown} */
                    grant_type: "authorization_code" | "refresh_token";
                    code?: string;
                    redirect_uri?: string;
                    client_id?: string;
                    client_secret?: string;
                    code_verifier?: string;
                    refresh_token?: string;
                    resource?: string;
                    scope?: string;
                };
            };
        };
        responses: {
            /** @description token response (RFC 6749 §5.1) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description RFC 6749 §5.2 error (invalid_request, invalid_grant, unsupported_grant_type, invalid_scope, invalid_target…) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description invalid_client: client authentication failed */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description too_many_requests: rate limit reached (Retry-After says when to retry) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    revokeToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    token: string;
                    client_id?: string;
                    client_secret?: string;
                    token_type_hint?: string;
                };
            };
        };
        responses: {
            /** @description revoked (or unknown token) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description RFC 6749 §5.2 error (invalid_request, invalid_grant, unsupported_grant_type, invalid_scope, invalid_target…) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description invalid_client: client authentication failed */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description too_many_requests: rate limit reached (Retry-After says when to retry) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    introspectToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    token: string;
                    client_id?: string;
                    client_secret?: string;
                    token_type_hint?: string;
                };
            };
        };
        responses: {
            /** @description introspection response (aud shows the resource binding) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description RFC 6749 §5.2 error (invalid_request, invalid_grant, unsupported_grant_type, invalid_scope, invalid_target…) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description invalid_client: client authentication failed */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description too_many_requests: rate limit reached (Retry-After says when to retry) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    registerClient: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description client information (RFC 7591 §3.2.1) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description invalid_client_metadata or invalid_redirect_uri (RFC 7591 §3.2.2) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description too_many_requests: rate limit reached (Retry-After says when to retry) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    getUserInfo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description claims */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata and the scope to ask for) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries the scope to step up to) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    endSession: {
        parameters: {
            query?: {
                id_token_hint?: string;
                client_id?: string;
                post_logout_redirect_uri?: string;
                state?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the logout confirmation page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description invalid_request or invalid_client (e.g. an unregistered post_logout_redirect_uri): JSON, or an error page for a browser */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                    "text/html": string;
                };
            };
        };
    };
    accountGraphql: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    query: string;
                    variables?: Record<string, never>;
                    operationName?: string;
                };
            };
        };
        responses: {
            /** @description GraphQL result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description not a GraphQL-over-HTTP request (e.g. no `query`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata and the scope to ask for) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries the scope to step up to) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    mcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    jsonrpc?: "2.0";
                    method?: string;
                };
            };
        };
        responses: {
            /** @description JSON-RPC response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description notification accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description not a valid JSON-RPC request (a JSON-RPC error object) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata and the scope to ask for) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries the scope to step up to) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    getSite: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        mcpConnectionsEnabled: boolean;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateSite: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETag of the GET representation; 412 when the resource changed since. */
                "If-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    mcpConnectionsEnabled?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        mcpConnectionsEnabled: boolean;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description precondition_failed: If-Match does not match the current ETag */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listOAuthApplications: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        applications: {
                            clientId: string;
                            clientName: string;
                            redirectUris: string[];
                            scope: string;
                            createdAt: string;
                            /** @description true: authenticates at the token endpoint with its secret (client_secret_post); PKCE either way. */
                            confidential: boolean;
                            /** @description true: every token request must carry a DPoP proof (RFC 9449), so its tokens are bound to its key; a request without one gets invalid_dpop_proof. */
                            dpopRequired: boolean;
                            suspended: boolean;
                        }[];
                        mcpConnectionsEnabled: boolean;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createOAuthApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat the request with the same key to get the same answer (24 h); another request with the key is refused. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    clientName: string;
                    redirectUris: string[];
                    scopes: ("openid" | "profile" | "email" | "account:read" | "account:write")[];
                    /** @description true: the client gets a secret, shown once (default false: public, PKCE only). */
                    confidential?: boolean;
                    /** @description true: its token requests must carry a DPoP proof (RFC 9449), binding its tokens to its key (default false). */
                    dpopRequired?: boolean;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description URL path of the created resource */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        clientId: string;
                        clientName: string;
                        redirectUris: string[];
                        scope: string;
                        createdAt: string;
                        /** @description true: authenticates at the token endpoint with its secret (client_secret_post); PKCE either way. */
                        confidential: boolean;
                        /** @description true: every token request must carry a DPoP proof (RFC 9449), so its tokens are bound to its key; a request without one gets invalid_dpop_proof. */
                        dpopRequired: boolean;
                        /** @description A confidential client's secret: shown only in this answer. */
                        clientSecret?: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOAuthApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clientId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        clientId: string;
                        clientName: string;
                        redirectUris: string[];
                        scope: string;
                        createdAt: string;
                        /** @description true: authenticates at the token endpoint with its secret (client_secret_post); PKCE either way. */
                        confidential: boolean;
                        /** @description true: every token request must carry a DPoP proof (RFC 9449), so its tokens are bound to its key; a request without one gets invalid_dpop_proof. */
                        dpopRequired: boolean;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteOAuthApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clientId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done (no content) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateOAuthApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETag of the GET representation; 412 when the resource changed since. */
                "If-Match"?: string;
            };
            path: {
                clientId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    clientName?: string;
                    redirectUris?: string[];
                    scopes?: ("openid" | "profile" | "email" | "account:read" | "account:write")[];
                    /** @description true: its token requests must carry a DPoP proof (RFC 9449), binding its tokens to its key (default false). */
                    dpopRequired?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        clientId: string;
                        clientName: string;
                        redirectUris: string[];
                        scope: string;
                        createdAt: string;
                        /** @description true: authenticates at the token endpoint with its secret (client_secret_post); PKCE either way. */
                        confidential: boolean;
                        /** @description true: every token request must carry a DPoP proof (RFC 9449), so its tokens are bound to its key; a request without one gets invalid_dpop_proof. */
                        dpopRequired: boolean;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description precondition_failed: If-Match does not match the current ETag */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    rotateOAuthApplicationSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clientId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        clientId: string;
                        clientSecret: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listConnectedGrants: {
        parameters: {
            query?: {
                /** @description Rows per page, 1–200. */
                limit?: number;
                /** @description `nextCursor` of the previous page. */
                cursor?: string;
                clientId?: string;
                userId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        grants: {
                            grantId: string;
                            clientId: string;
                            clientName: string;
                            /** @description Kind of client, as people read it (vendor, application on a computer, metadata document, site application). */
                            kind: string;
                            userId: string;
                            userEmail: string;
                            /** @description Space-separated scopes granted. */
                            scope: string;
                            createdAt: string;
                            lastUsedAt: string | null;
                            /** @description Key-bound grant (DPoP, RFC 9449): the RFC 7638 thumbprint of the key its latest tokens are bound to (their cnf.jkt); null for bearer tokens. */
                            dpopJkt: string | null;
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    revokeConnectedGrant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                grantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done (no content) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    revokeClientGrants: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clientId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done (no content) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listAuditEvents: {
        parameters: {
            query?: {
                /** @description Rows per page, 1–100. */
                limit?: number;
                /** @description `nextCursor` of the previous page. */
                cursor?: string;
                /** @description Events of one client: those it made and the operator actions on it (target `application:<clientId>`), from every surface. */
                clientId?: string;
                userId?: string;
                kind?: "registration" | "consent" | "token_issued" | "refresh" | "revocation" | "refused" | "operator_action" | "sign_in" | "sign_in_failed" | "sign_in_locked";
                from?: string;
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: {
                            id: string;
                            /** @description ISO 8601 UTC. */
                            at: string;
                            /** @enum {string} */
                            kind: "registration" | "consent" | "token_issued" | "refresh" | "revocation" | "refused" | "operator_action" | "sign_in" | "sign_in_failed" | "sign_in_locked";
                            /** @description The client that acted (the token's client); null for the operator area. */
                            clientId: string | null;
                            userId: string | null;
                            /** @description Short text for people; never a token, code, secret or password. */
                            detail: string;
                            /** @description Operator actions: what was acted on, `<type>:<id>` (e.g. `application:<client_id>`, `invitation:<id>`, `member:<email>`). */
                            target: string | null;
                            /** @description Operator actions: where the action came from (`api`: /api/v1, `mcp`: an MCP tool, `admin`: the operator area). */
                            surface: ("api" | "mcp" | "admin") | null;
                            /** @description How many events the row stands for: refreshes are counted, one row per grant and UTC hour (`at` the first refresh, `lastAt` the last); every other event is a row of its own (1). */
                            count: number;
                            /** @description ISO 8601 UTC of the last event the row counts; equals `at` when `count` is 1. */
                            lastAt: string;
                            /** @description The grant of a token event (issuance, refresh), when known. */
                            grantId: string | null;
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        nextCursor: string | null;
                    };
                    "text/csv": string;
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listCourses: {
        parameters: {
            query?: {
                /** @description Rows per page, 1–200. */
                limit?: number;
                /** @description `nextCursor` of the previous page. */
                cursor?: string;
                /** @description Only public (true) or hidden (false) courses. */
                isPublic?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        courses: {
                            slug: string;
                            title: string;
                            description: string;
                            isPublic: boolean;
                            lectureCount: number;
                            enrollmentCount: number;
                            createdAt: string;
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createCourse: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat the request with the same key to get the same answer (24 h); another request with the key is refused. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    slug: string;
                    title: string;
                    description?: string;
                    /**
                     * @description Listed in the public catalogue.
                     * @default true
                     */
                    isPublic?: boolean;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description URL path of the created resource */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        slug: string;
                        title: string;
                        description: string;
                        isPublic: boolean;
                        lectureCount: number;
                        enrollmentCount: number;
                        createdAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCourse: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        slug: string;
                        title: string;
                        description: string;
                        isPublic: boolean;
                        lectureCount: number;
                        enrollmentCount: number;
                        createdAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateCourse: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETag of the GET representation; 412 when the resource changed since. */
                "If-Match"?: string;
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title?: string;
                    description?: string;
                    /** @description Listed in the public catalogue. */
                    isPublic?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        slug: string;
                        title: string;
                        description: string;
                        isPublic: boolean;
                        lectureCount: number;
                        enrollmentCount: number;
                        createdAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description precondition_failed: If-Match does not match the current ETag */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    publishCourse: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        slug: string;
                        title: string;
                        description: string;
                        isPublic: boolean;
                        lectureCount: number;
                        enrollmentCount: number;
                        createdAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCurriculum: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        slug: string;
                        lectures: {
                            id: string;
                            position: number;
                            title: string;
                            durationSeconds: number;
                        }[];
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    addLecture: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat the request with the same key to get the same answer (24 h); another request with the key is refused. */
                "Idempotency-Key"?: string;
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title: string;
                    /** @description Length in seconds. */
                    durationSeconds: number;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description URL path of the created resource */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        slug: string;
                        lecture: {
                            id: string;
                            position: number;
                            title: string;
                            durationSeconds: number;
                        };
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listSections: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        slug: string;
                        sections: {
                            id: string;
                            position: number;
                            title: string;
                            /** @description Its lectures, in curriculum order. */
                            lectureIds: string[];
                        }[];
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createSection: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat the request with the same key to get the same answer (24 h); another request with the key is refused. */
                "Idempotency-Key"?: string;
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description URL path of the created resource */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        slug: string;
                        section: {
                            id: string;
                            position: number;
                            title: string;
                            /** @description Its lectures, in curriculum order. */
                            lectureIds: string[];
                        };
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    setLectureSection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                lectureId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A section of the same course (GET /api/v1/courses/{slug}/sections). */
                    sectionId: string;
                };
            };
        };
        responses: {
            /** @description Done (no content) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    removeLecture: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                lectureId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done (no content) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listStudents: {
        parameters: {
            query?: {
                /** @description Rows per page, 1–200. */
                limit?: number;
                /** @description `nextCursor` of the previous page. */
                cursor?: string;
                courseSlug?: string;
                status?: "active" | "expired";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        students: {
                            email: string;
                            name: string;
                            courseSlug: string;
                            expireDate: string | null;
                            hasLifetimeAccess: boolean;
                            /** @enum {string} */
                            status: "active" | "expired";
                            enrolledAt: string;
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    enrollStudent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                courseSlug: string;
                email: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: date-time */
                    expiresAt?: string;
                    lifetimeAccess?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        email: string;
                        name: string;
                        courseSlug: string;
                        expireDate: string | null;
                        hasLifetimeAccess: boolean;
                        /** @enum {string} */
                        status: "active" | "expired";
                        enrolledAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    unenrollStudent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                courseSlug: string;
                email: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done (no content) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listMembers: {
        parameters: {
            query?: {
                /** @description Rows per page, 1–200. */
                limit?: number;
                /** @description `nextCursor` of the previous page. */
                cursor?: string;
                role?: "owner" | "admin" | "instructor" | "student";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        members: {
                            email: string;
                            name: string;
                            roles: string[];
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        nextCursor: string | null;
                    };
                    "text/csv": string;
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    grantMemberRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                email: string;
                role: "owner" | "admin" | "instructor" | "student";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        email: string;
                        name: string;
                        roles: string[];
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    revokeMemberRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                email: string;
                role: "owner" | "admin" | "instructor" | "student";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done (no content) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listInvitations: {
        parameters: {
            query?: {
                /** @description Rows per page, 1–200. */
                limit?: number;
                /** @description `nextCursor` of the previous page. */
                cursor?: string;
                status?: "pending" | "accepted" | "revoked" | "expired";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        invitations: {
                            id: string;
                            email: string;
                            role: string;
                            /** @enum {string} */
                            status: "pending" | "accepted" | "revoked" | "expired";
                            createdAt: string;
                            expiresAt: string;
                            acceptedAt: string | null;
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createInvitation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat the request with the same key to get the same answer (24 h); another request with the key is refused. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /** @enum {string} */
                    role: "owner" | "admin" | "instructor" | "student";
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description URL path of the created resource */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        email: string;
                        role: string;
                        /** @enum {string} */
                        status: "pending" | "accepted" | "revoked" | "expired";
                        createdAt: string;
                        expiresAt: string;
                        acceptedAt: string | null;
                        /** @description One-time link for the invited person (shown only here). */
                        acceptUrl: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        email: string;
                        role: string;
                        /** @enum {string} */
                        status: "pending" | "accepted" | "revoked" | "expired";
                        createdAt: string;
                        expiresAt: string;
                        acceptedAt: string | null;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    revokeInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done (no content) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listOrders: {
        parameters: {
            query?: {
                /** @description Rows per page, 1–200. */
                limit?: number;
                /** @description `nextCursor` of the previous page. */
                cursor?: string;
                status?: "pending" | "paid" | "refunded" | "cancelled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        orders: {
                            number: string;
                            email: string;
                            status: string;
                            totalMinor: number;
                            currency: string;
                            createdAt: string;
                            itemCount: number;
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        nextCursor: string | null;
                    };
                    "text/csv": string;
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    siteAnalytics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        asOf: string;
                        courses: {
                            total: number;
                            public: number;
                        };
                        members: {
                            total: number;
                            byRole: {
                                [key: string]: number;
                            };
                        };
                        enrollments: {
                            total: number;
                            active: number;
                            expired: number;
                            lifetime: number;
                        };
                        orders: {
                            total: number;
                            byStatus: {
                                [key: string]: number;
                            };
                        };
                        revenue: {
                            currency: string;
                            paidMinor: number;
                        }[];
                        eventRegistrations: {
                            total: number;
                            byStatus: {
                                [key: string]: number;
                            };
                        };
                        activeLearners30d: number;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Rows per page, 1–200. */
                limit?: number;
                /** @description `nextCursor` of the previous page. */
                cursor?: string;
                upcomingOnly?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: {
                            id: string;
                            title: string;
                            startsAt: string;
                            endsAt: string;
                            location: string;
                            registrations: number;
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat the request with the same key to get the same answer (24 h); another request with the key is refused. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title: string;
                    /** Format: date-time */
                    startsAt: string;
                    /** Format: date-time */
                    endsAt: string;
                    location: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description URL path of the created resource */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        title: string;
                        startsAt: string;
                        endsAt: string;
                        location: string;
                        registrations: number;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        title: string;
                        startsAt: string;
                        endsAt: string;
                        location: string;
                        registrations: number;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    cancelEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done (no content) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listCoupons: {
        parameters: {
            query?: {
                /** @description Rows per page, 1–200. */
                limit?: number;
                /** @description `nextCursor` of the previous page. */
                cursor?: string;
                active?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        coupons: {
                            code: string;
                            percentOff: number;
                            maxRedemptions: number | null;
                            redemptions: number;
                            expiresAt: string | null;
                            active: boolean;
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createCoupon: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat the request with the same key to get the same answer (24 h); another request with the key is refused. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    code: string;
                    percentOff: number;
                    maxRedemptions?: number;
                    /** Format: date-time */
                    expiresAt?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description URL path of the created resource */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code: string;
                        percentOff: number;
                        maxRedemptions: number | null;
                        redemptions: number;
                        expiresAt: string | null;
                        active: boolean;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getCoupon: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code: string;
                        percentOff: number;
                        maxRedemptions: number | null;
                        redemptions: number;
                        expiresAt: string | null;
                        active: boolean;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deactivateCoupon: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code: string;
                        percentOff: number;
                        maxRedemptions: number | null;
                        redemptions: number;
                        expiresAt: string | null;
                        active: boolean;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getAppearance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description #rrggbb */
                        primaryColor: string;
                        /** @description #rrggbb */
                        accentColor: string;
                        logoUrl: string | null;
                        /** @enum {string} */
                        fontFamily: "system-ui" | "serif" | "sans-serif" | "monospace" | "Inter" | "Merriweather" | "Source Sans 3";
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    setAppearance: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETag of the GET representation; 412 when the resource changed since. */
                "If-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description #rrggbb */
                    primaryColor: string;
                    /** @description #rrggbb */
                    accentColor: string;
                    logoUrl: string | null;
                    /** @enum {string} */
                    fontFamily: "system-ui" | "serif" | "sans-serif" | "monospace" | "Inter" | "Merriweather" | "Source Sans 3";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description #rrggbb */
                        primaryColor: string;
                        /** @description #rrggbb */
                        accentColor: string;
                        logoUrl: string | null;
                        /** @enum {string} */
                        fontFamily: "system-ui" | "serif" | "sans-serif" | "monospace" | "Inter" | "Merriweather" | "Source Sans 3";
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description precondition_failed: If-Match does not match the current ETag */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listPages: {
        parameters: {
            query?: {
                /** @description Rows per page, 1–200. */
                limit?: number;
                /** @description `nextCursor` of the previous page. */
                cursor?: string;
                status?: "draft" | "published";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        pages: {
                            slug: string;
                            title: string;
                            body: string;
                            /** @enum {string} */
                            status: "draft" | "published";
                            publishedAt: string | null;
                            createdAt: string;
                            updatedAt: string;
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createPage: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat the request with the same key to get the same answer (24 h); another request with the key is refused. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    slug: string;
                    title: string;
                    /** @description Markdown. */
                    body?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description URL path of the created resource */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        slug: string;
                        title: string;
                        body: string;
                        /** @enum {string} */
                        status: "draft" | "published";
                        publishedAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getPage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        slug: string;
                        title: string;
                        body: string;
                        /** @enum {string} */
                        status: "draft" | "published";
                        publishedAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deletePage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done (no content) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updatePage: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETag of the GET representation; 412 when the resource changed since. */
                "If-Match"?: string;
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title?: string;
                    body?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        slug: string;
                        title: string;
                        body: string;
                        /** @enum {string} */
                        status: "draft" | "published";
                        publishedAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description precondition_failed: If-Match does not match the current ETag */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    publishPage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        slug: string;
                        title: string;
                        body: string;
                        /** @enum {string} */
                        status: "draft" | "published";
                        publishedAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listPosts: {
        parameters: {
            query?: {
                /** @description Rows per page, 1–200. */
                limit?: number;
                /** @description `nextCursor` of the previous page. */
                cursor?: string;
                status?: "draft" | "published";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        posts: {
                            slug: string;
                            title: string;
                            body: string;
                            /** @enum {string} */
                            status: "draft" | "published";
                            publishedAt: string | null;
                            createdAt: string;
                            updatedAt: string;
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createPost: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat the request with the same key to get the same answer (24 h); another request with the key is refused. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    slug: string;
                    title: string;
                    /** @description Markdown. */
                    body?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description URL path of the created resource */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        slug: string;
                        title: string;
                        body: string;
                        /** @enum {string} */
                        status: "draft" | "published";
                        publishedAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getPost: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        slug: string;
                        title: string;
                        body: string;
                        /** @enum {string} */
                        status: "draft" | "published";
                        publishedAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deletePost: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done (no content) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updatePost: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETag of the GET representation; 412 when the resource changed since. */
                "If-Match"?: string;
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title?: string;
                    body?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        slug: string;
                        title: string;
                        body: string;
                        /** @enum {string} */
                        status: "draft" | "published";
                        publishedAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description precondition_failed: If-Match does not match the current ETag */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    publishPost: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        slug: string;
                        title: string;
                        body: string;
                        /** @enum {string} */
                        status: "draft" | "published";
                        publishedAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listLecturers: {
        parameters: {
            query?: {
                /** @description Rows per page, 1–200. */
                limit?: number;
                /** @description `nextCursor` of the previous page. */
                cursor?: string;
                /** @description Course slug, e.g. "sql-basics". */
                courseSlug?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        lecturers: {
                            id: string;
                            name: string;
                            bio: string;
                            photoUrl: string | null;
                            /** @description A person with the instructor role at your site, or null. */
                            userId: string | null;
                            /** @description Slugs of the courses this lecturer teaches. */
                            courses: string[];
                            createdAt: string;
                            updatedAt: string;
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createLecturer: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat the request with the same key to get the same answer (24 h); another request with the key is refused. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description Markdown. */
                    bio?: string;
                    /** @description https:// URL of a portrait, or null. */
                    photoUrl?: string | null;
                    /** @description User id of a person with the instructor role at your site, or null. */
                    userId?: string | null;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description URL path of the created resource */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        bio: string;
                        photoUrl: string | null;
                        /** @description A person with the instructor role at your site, or null. */
                        userId: string | null;
                        /** @description Slugs of the courses this lecturer teaches. */
                        courses: string[];
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getLecturer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                lecturerId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        bio: string;
                        photoUrl: string | null;
                        /** @description A person with the instructor role at your site, or null. */
                        userId: string | null;
                        /** @description Slugs of the courses this lecturer teaches. */
                        courses: string[];
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteLecturer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                lecturerId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done (no content) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateLecturer: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETag of the GET representation; 412 when the resource changed since. */
                "If-Match"?: string;
            };
            path: {
                lecturerId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @description Markdown. */
                    bio?: string;
                    /** @description https:// URL of a portrait, or null. */
                    photoUrl?: string | null;
                    /** @description User id of a person with the instructor role at your site, or null. */
                    userId?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        bio: string;
                        photoUrl: string | null;
                        /** @description A person with the instructor role at your site, or null. */
                        userId: string | null;
                        /** @description Slugs of the courses this lecturer teaches. */
                        courses: string[];
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description precondition_failed: If-Match does not match the current ETag */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    assignLecturer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                lecturerId: string;
                courseSlug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        bio: string;
                        photoUrl: string | null;
                        /** @description A person with the instructor role at your site, or null. */
                        userId: string | null;
                        /** @description Slugs of the courses this lecturer teaches. */
                        courses: string[];
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    unassignLecturer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                lecturerId: string;
                courseSlug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        bio: string;
                        photoUrl: string | null;
                        /** @description A person with the instructor role at your site, or null. */
                        userId: string | null;
                        /** @description Slugs of the courses this lecturer teaches. */
                        courses: string[];
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listComments: {
        parameters: {
            query?: {
                /** @description Rows per page, 1–200. */
                limit?: number;
                /** @description `nextCursor` of the previous page. */
                cursor?: string;
                /** @description Only comments on lectures of this course. */
                courseSlug?: string;
                /** @description Only comments on this lecture. */
                lectureId?: string;
                /** @description Only comments on this post. */
                postSlug?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        comments: {
                            id: string;
                            on: {
                                /** @constant */
                                kind: "lecture";
                                lectureId: string;
                                courseSlug: string;
                            } | {
                                /** @constant */
                                kind: "post";
                                postSlug: string;
                            };
                            /** @description userId null and name "Deleted account" once the account is gone. */
                            author: {
                                userId: string | null;
                                name: string;
                            };
                            body: string;
                            createdAt: string;
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getComment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                commentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        on: {
                            /** @constant */
                            kind: "lecture";
                            lectureId: string;
                            courseSlug: string;
                        } | {
                            /** @constant */
                            kind: "post";
                            postSlug: string;
                        };
                        /** @description userId null and name "Deleted account" once the account is gone. */
                        author: {
                            userId: string | null;
                            name: string;
                        };
                        body: string;
                        createdAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listForms: {
        parameters: {
            query?: {
                /** @description Rows per page, 1–200. */
                limit?: number;
                /** @description `nextCursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        forms: {
                            id: string;
                            title: string;
                            description: string;
                            fieldCount: number;
                            submissionCount: number;
                            createdAt: string;
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getForm: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                formId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        title: string;
                        description: string;
                        fieldCount: number;
                        submissionCount: number;
                        createdAt: string;
                        fields: {
                            name: string;
                            label: string;
                            /** @enum {string} */
                            type: "text" | "email" | "textarea" | "select" | "checkbox";
                            required: boolean;
                            options?: string[];
                        }[];
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listFormSubmissions: {
        parameters: {
            query?: {
                /** @description Rows per page, 1–200. */
                limit?: number;
                /** @description `nextCursor` of the previous page. */
                cursor?: string;
                /** @description ISO 8601 UTC; only submissions at or after it. */
                since?: string;
            };
            header?: never;
            path: {
                formId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        formId: string;
                        submissions: {
                            id: string;
                            submittedAt: string;
                            values: {
                                [key: string]: string | boolean;
                            };
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    uploadFile: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat the request with the same key to get the same answer (24 h); another request with the key is refused. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The file (PNG, JPEG, WebP, GIF or PDF).
                     */
                    file: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description URL path of the created resource */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @description Absolute URL the file is served at (public to whoever has it). */
                        url: string;
                        /** @description From the bytes: image/png, image/jpeg, image/webp, image/gif or application/pdf. */
                        contentType: string;
                        /** @description Bytes. */
                        size: number;
                        /** @description Lower-case hex SHA-256 of the bytes. */
                        sha256: string;
                        filename: string;
                        createdAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description the file is larger than UPLOAD_MAX_BYTES */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description unsupported_media_type: not multipart/form-data, or the bytes are not an accepted type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                fileId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @description Absolute URL the file is served at (public to whoever has it). */
                        url: string;
                        /** @description From the bytes: image/png, image/jpeg, image/webp, image/gif or application/pdf. */
                        contentType: string;
                        /** @description Bytes. */
                        size: number;
                        /** @description Lower-case hex SHA-256 of the bytes. */
                        sha256: string;
                        filename: string;
                        createdAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                fileId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done (no content) */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listMembershipPlans: {
        parameters: {
            query?: {
                /** @description Rows per page, 1–200. */
                limit?: number;
                /** @description `nextCursor` of the previous page. */
                cursor?: string;
                status?: "active" | "archived";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        plans: {
                            id: string;
                            name: string;
                            priceMinor: number;
                            currency: string;
                            /** @enum {string} */
                            interval: "month" | "year";
                            courseSlugs: string[];
                            /** @enum {string} */
                            status: "active" | "archived";
                            createdAt: string;
                            updatedAt: string;
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createMembershipPlan: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat the request with the same key to get the same answer (24 h); another request with the key is refused. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description Integer minor units (cents) of the currency. */
                    priceMinor: number;
                    /** @description ISO 4217 code, e.g. EUR. */
                    currency: string;
                    /** @enum {string} */
                    interval: "month" | "year";
                    /** @description Slugs of courses of your site included in the plan. */
                    courseSlugs?: string[];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description URL path of the created resource */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        priceMinor: number;
                        currency: string;
                        /** @enum {string} */
                        interval: "month" | "year";
                        courseSlugs: string[];
                        /** @enum {string} */
                        status: "active" | "archived";
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMembershipPlan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                planId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        priceMinor: number;
                        currency: string;
                        /** @enum {string} */
                        interval: "month" | "year";
                        courseSlugs: string[];
                        /** @enum {string} */
                        status: "active" | "archived";
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateMembershipPlan: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETag of the GET representation; 412 when the resource changed since. */
                "If-Match"?: string;
            };
            path: {
                planId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @description Integer minor units (cents) of the currency. */
                    priceMinor?: number;
                    /** @description ISO 4217 code, e.g. EUR. */
                    currency?: string;
                    /** @description Slugs of courses of your site included in the plan. */
                    courseSlugs?: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        priceMinor: number;
                        currency: string;
                        /** @enum {string} */
                        interval: "month" | "year";
                        courseSlugs: string[];
                        /** @enum {string} */
                        status: "active" | "archived";
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description precondition_failed: If-Match does not match the current ETag */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listSubscriptions: {
        parameters: {
            query?: {
                /** @description Rows per page, 1–200. */
                limit?: number;
                /** @description `nextCursor` of the previous page. */
                cursor?: string;
                planId?: string;
                status?: "active" | "past_due" | "cancelled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        subscriptions: {
                            id: string;
                            planId: string;
                            email: string;
                            name: string;
                            /** @enum {string} */
                            status: "active" | "past_due" | "cancelled";
                            currentPeriodStart: string;
                            currentPeriodEnd: string;
                            cancelledAt: string | null;
                            createdAt: string;
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat the request with the same key to get the same answer (24 h); another request with the key is refused. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    planId: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description URL path of the created resource */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        planId: string;
                        email: string;
                        name: string;
                        /** @enum {string} */
                        status: "active" | "past_due" | "cancelled";
                        currentPeriodStart: string;
                        currentPeriodEnd: string;
                        cancelledAt: string | null;
                        createdAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                subscriptionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        planId: string;
                        email: string;
                        name: string;
                        /** @enum {string} */
                        status: "active" | "past_due" | "cancelled";
                        currentPeriodStart: string;
                        currentPeriodEnd: string;
                        cancelledAt: string | null;
                        createdAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    cancelSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                subscriptionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        planId: string;
                        email: string;
                        name: string;
                        /** @enum {string} */
                        status: "active" | "past_due" | "cancelled";
                        currentPeriodStart: string;
                        currentPeriodEnd: string;
                        cancelledAt: string | null;
                        createdAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    archiveMembershipPlan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                planId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        priceMinor: number;
                        currency: string;
                        /** @enum {string} */
                        interval: "month" | "year";
                        courseSlugs: string[];
                        /** @enum {string} */
                        status: "active" | "archived";
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listDigitalProducts: {
        parameters: {
            query?: {
                /** @description Rows per page, 1–200. */
                limit?: number;
                /** @description `nextCursor` of the previous page. */
                cursor?: string;
                published?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        products: {
                            id: string;
                            name: string;
                            priceMinor: number;
                            currency: string;
                            file: string;
                            published: boolean;
                            createdAt: string;
                            updatedAt: string;
                        }[];
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createDigitalProduct: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat the request with the same key to get the same answer (24 h); another request with the key is refused. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description Integer minor units (cents) of the currency. */
                    priceMinor: number;
                    /** @description ISO 4217 code, e.g. EUR. */
                    currency: string;
                    /** @description An https:// URL or storage:<fileId> of a file uploaded with POST /api/v1/files. */
                    file: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description URL path of the created resource */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        priceMinor: number;
                        currency: string;
                        file: string;
                        published: boolean;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getDigitalProduct: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                productId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        priceMinor: number;
                        currency: string;
                        file: string;
                        published: boolean;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateDigitalProduct: {
        parameters: {
            query?: never;
            header?: {
                /** @description ETag of the GET representation; 412 when the resource changed since. */
                "If-Match"?: string;
            };
            path: {
                productId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @description Integer minor units (cents) of the currency. */
                    priceMinor?: number;
                    /** @description ISO 4217 code, e.g. EUR. */
                    currency?: string;
                    /** @description An https:// URL or storage:<fileId> of a file uploaded with POST /api/v1/files. */
                    file?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        priceMinor: number;
                        currency: string;
                        file: string;
                        published: boolean;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description precondition_failed: If-Match does not match the current ETag */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    publishDigitalProduct: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                productId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        priceMinor: number;
                        currency: string;
                        file: string;
                        published: boolean;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    unpublishDigitalProduct: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                productId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        priceMinor: number;
                        currency: string;
                        file: string;
                        published: boolean;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description invalid_request: a field failed validation or breaks a rule (`errors[].pointer` names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description invalid_token (WWW-Authenticate carries resource_metadata) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description insufficient_scope (WWW-Authenticate carries scope) or access_denied (no operator role at the site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description not_found: no such row at your site (rows of other sites are never revealed) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description conflict with the current state (e.g. a slug or code already taken) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description temporarily_unavailable: a backing store is unreachable (Retry-After says when to retry) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
}
