/**
 * Who may call each endpoint of the product, as data. `role-table.test.ts` checks that the
 * routes registered in the app are exactly these rows, walks every row with a signed-out caller,
 * a member, an admin and an admin of another organization, and checks that `docs/roles.md` is
 * `renderRolesMarkdown()` of this table (regenerate it with
 * `npx vitest run src/server/test/role-table.test.ts -u`).
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call it:
 * - public: anybody, signed in or not;
 * - signedIn: any signed-in user (the call is about the caller, or names no organization);
 * - member: a member (any role) of the organization the call names;
 * - admin: an admin of the organization the call names;
 * - superAdmin: a platform super admin;
 * - recipient: a recipient signed in to their own page (decision 032): their portal session only;
 *   every staff session is refused (401), and the call reads that recipient's rows alone.
 * - scim: the organization's SCIM bearer token (decision 060): no session or API key is anybody
 *   there (401 in SCIM's error JSON), and the token acts on its own organization's rows only.
 */
export type Access = 'public' | 'signedIn' | 'member' | 'admin' | 'superAdmin' | 'recipient' | 'scim';

/**
 * How the call names the organization it acts on:
 * - none: it does not act on an organization (or acts on the caller's own ones);
 * - header: the `x-organization-id` header;
 * - path: the path id (`/api/organizations/:id`, `/api/organization-settings/:orgId`);
 * - row: the organization of the row named in the path (photos: an <img> sends no header);
 * - token: the organization of the invitation whose token is sent;
 * - query: the `organizationId` query parameter (the live desk's stream: an EventSource sends no header).
 * - bearer: the organization whose SCIM token is sent (`Authorization: Bearer scim_…`).
 */
type OrganizationBy = 'none' | 'header' | 'path' | 'row' | 'token' | 'query' | 'bearer';

export type RoleRow = {
  readonly group: string;
  readonly method: Method;
  /** Exactly as registered in Fastify. */
  readonly path: string;
  readonly access: Access;
  readonly organization: OrganizationBy;
  /** The path parameter naming a row of one organization: another organization's row answers 404. */
  readonly rowParam?: string;
  /** Body fields naming rows of the organization: another organization's row answers 404. */
  readonly bodyRefs?: readonly string[];
  /** Query parameters naming rows of the organization (a pickup code): another organization's answers 404. */
  readonly queryRefs?: readonly string[];
  readonly what: string;
  /** A call of the specification not served yet: the walk marks it todo, the route check expects it absent. */
  readonly planned?: boolean;
};

const docs = <P extends string>(path: P, what: string) =>
  ({ group: 'Operations', method: 'GET', path, access: 'public', organization: 'none', what }) as const;

export const ROLE_TABLE = [
  // Accounts
  {
    group: 'Accounts',
    method: 'POST',
    path: '/api/register',
    access: 'public',
    organization: 'none',
    what: 'Create an account and sign in',
  },
  {
    group: 'Accounts',
    method: 'POST',
    path: '/api/login',
    access: 'public',
    organization: 'none',
    what: 'Sign in',
  },
  {
    group: 'Accounts',
    method: 'POST',
    path: '/api/login/two-factor',
    access: 'public',
    organization: 'none',
    what: 'Second step of a sign-in with two-factor on: the challenge and a code',
  },
  {
    group: 'Accounts',
    method: 'POST',
    path: '/api/logout',
    access: 'public',
    organization: 'none',
    what: 'End the session (idempotent: 204 without one too)',
  },
  {
    group: 'Accounts',
    method: 'GET',
    path: '/api/auth/user',
    access: 'signedIn',
    organization: 'none',
    what: 'The signed-in user',
  },
  {
    group: 'Accounts',
    method: 'PATCH',
    path: '/api/auth/user',
    access: 'signedIn',
    organization: 'none',
    what: 'Change own first and last name',
  },
  {
    group: 'Accounts',
    method: 'PUT',
    path: '/api/auth/user/language',
    access: 'signedIn',
    organization: 'none',
    what: "Choose the staff screens' language (null follows the browser)",
  },
  {
    group: 'Accounts',
    method: 'POST',
    path: '/api/change-password',
    access: 'signedIn',
    organization: 'none',
    what: 'Change own password',
  },
  {
    group: 'Accounts',
    method: 'POST',
    path: '/api/forgot-password',
    access: 'public',
    organization: 'none',
    what: 'Email a reset link (same answer whether or not the account exists)',
  },
  {
    group: 'Accounts',
    method: 'POST',
    path: '/api/reset-password',
    access: 'public',
    organization: 'none',
    what: 'Set a new password with an emailed token',
  },
  {
    group: 'Accounts',
    method: 'POST',
    path: '/api/verify-email',
    access: 'public',
    organization: 'none',
    what: 'Prove the account email with the emailed token',
  },
  {
    group: 'Accounts',
    method: 'POST',
    path: '/api/verify-email/resend',
    access: 'signedIn',
    organization: 'none',
    what: 'Email a new verification link (a few an hour)',
  },
  {
    group: 'Accounts',
    method: 'GET',
    path: '/api/auth/two-factor',
    access: 'signedIn',
    organization: 'none',
    what: 'Own two-factor status',
  },
  {
    group: 'Accounts',
    method: 'POST',
    path: '/api/auth/two-factor/setup',
    access: 'signedIn',
    organization: 'none',
    what: 'Start turning own two-factor on (password again)',
  },
  {
    group: 'Accounts',
    method: 'POST',
    path: '/api/auth/two-factor/enable',
    access: 'signedIn',
    organization: 'none',
    what: 'Turn own two-factor on with a code',
  },
  {
    group: 'Accounts',
    method: 'POST',
    path: '/api/auth/two-factor/disable',
    access: 'signedIn',
    organization: 'none',
    what: 'Turn own two-factor off (password and a code)',
  },
  {
    group: 'Accounts',
    method: 'POST',
    path: '/api/auth/two-factor/recovery-codes',
    access: 'signedIn',
    organization: 'none',
    what: 'New recovery codes for own account (a code)',
  },
  {
    group: 'Accounts',
    method: 'GET',
    path: '/api/invitations/verify/:token',
    access: 'public',
    organization: 'token',
    what: 'What an invitation offers (email, organization name, role); 404 for unknown, used or expired tokens',
  },
  {
    group: 'Accounts',
    method: 'POST',
    path: '/api/invitations/accept',
    access: 'signedIn',
    organization: 'token',
    what: "Join the invitation's organization: the invitation's email must be the caller's (400 otherwise)",
  },

  // Organizations, members, invitations, settings
  {
    group: 'Organizations',
    method: 'GET',
    path: '/api/organizations',
    access: 'signedIn',
    organization: 'none',
    what: "The caller's organizations with the caller's role (only those)",
  },
  {
    group: 'Organizations',
    method: 'POST',
    path: '/api/organizations',
    access: 'signedIn',
    organization: 'none',
    what: 'Create an organization; the caller becomes its admin',
  },
  {
    group: 'Organizations',
    method: 'GET',
    path: '/api/organizations/:id',
    access: 'member',
    organization: 'path',
    what: 'One of the caller’s organizations',
  },
  {
    group: 'Organizations',
    method: 'PUT',
    path: '/api/organizations/:id',
    access: 'admin',
    organization: 'path',
    what: 'Update the organization',
  },
  {
    group: 'Organizations',
    method: 'GET',
    path: '/api/organizations/:id/members',
    access: 'admin',
    organization: 'path',
    what: 'Members with their role',
  },
  {
    group: 'Organizations',
    method: 'PUT',
    path: '/api/organizations/:id/members/:userId',
    access: 'admin',
    organization: 'path',
    rowParam: 'userId',
    what: "Change a member's role (not the last admin)",
  },
  {
    group: 'Organizations',
    method: 'DELETE',
    path: '/api/organizations/:id/members/:userId',
    access: 'admin',
    organization: 'path',
    rowParam: 'userId',
    what: 'Remove a member (not yourself, not the last admin)',
  },
  {
    group: 'Organizations',
    method: 'GET',
    path: '/api/organization-settings/:orgId',
    access: 'member',
    organization: 'path',
    what: 'Customization lists and preferences',
  },
  {
    group: 'Organizations',
    method: 'PUT',
    path: '/api/organization-settings/:orgId',
    access: 'admin',
    organization: 'path',
    what: 'Change lists or preferences',
  },
  {
    group: 'Organizations',
    method: 'GET',
    path: '/api/user-invitations',
    access: 'admin',
    organization: 'header',
    what: 'Pending and expired invitations',
  },
  {
    group: 'Organizations',
    method: 'POST',
    path: '/api/user-invitations',
    access: 'admin',
    organization: 'header',
    what: 'Invite by email with a role',
  },
  {
    group: 'Organizations',
    method: 'POST',
    path: '/api/user-invitations/:id/resend',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Send an invitation again with a new token and expiry',
  },
  {
    group: 'Organizations',
    method: 'DELETE',
    path: '/api/user-invitations/:id',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Revoke an invitation',
  },
  {
    group: 'Organizations',
    method: 'GET',
    path: '/api/audit-log',
    access: 'admin',
    organization: 'header',
    what: 'Who invited, removed, changed a role or a setting, and when',
  },

  {
    group: 'Organizations',
    method: 'POST',
    path: '/api/organizations/:id/upgrade',
    access: 'admin',
    organization: 'path',
    what: 'The organization, when a verified payment backs exactly this plan and seat count (402 otherwise)',
  },

  // Billing and integrations
  {
    group: 'Billing and integrations',
    method: 'GET',
    path: '/api/licenses/summary',
    access: 'admin',
    organization: 'header',
    what: 'Plan, seats and price summary',
  },
  {
    group: 'Billing and integrations',
    method: 'GET',
    path: '/api/licenses/active',
    access: 'admin',
    organization: 'header',
    what: 'Active licences',
  },
  {
    group: 'Billing and integrations',
    method: 'POST',
    path: '/api/billing/create-checkout-session',
    access: 'admin',
    organization: 'header',
    what: 'Start a checkout with the payment provider',
  },
  {
    group: 'Billing and integrations',
    method: 'POST',
    path: '/api/billing/create-portal-session',
    access: 'admin',
    organization: 'header',
    what: "Open the payment provider's customer portal",
  },
  {
    group: 'Billing and integrations',
    method: 'GET',
    path: '/api/plans',
    access: 'public',
    organization: 'none',
    what: 'The plan table: prices, seats, package limits, features, payment choices offered',
  },
  {
    group: 'Billing and integrations',
    method: 'GET',
    path: '/api/billing/payments',
    access: 'admin',
    organization: 'header',
    what: 'Payments and failed charges',
  },
  {
    group: 'Billing and integrations',
    method: 'GET',
    path: '/api/billing/demo-checkouts/:id',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'A checkout of the demo payment provider (only while DEMO_PAYMENTS is on)',
  },
  {
    group: 'Billing and integrations',
    method: 'POST',
    path: '/api/billing/demo-checkouts/:id/complete',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Pay a demo checkout and apply its plan',
  },
  {
    group: 'Billing and integrations',
    method: 'GET',
    path: '/api/paypal/setup',
    access: 'admin',
    organization: 'header',
    what: "PayPal's client token (or demo mode)",
  },
  {
    group: 'Billing and integrations',
    method: 'POST',
    path: '/api/paypal/order',
    access: 'admin',
    organization: 'header',
    what: 'Create a PayPal order priced by the server',
  },
  {
    group: 'Billing and integrations',
    method: 'POST',
    path: '/api/paypal/order/:id/capture',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: "Capture the organization's PayPal order and apply its plan once PayPal reports it completed",
  },
  {
    group: 'Billing and integrations',
    method: 'POST',
    path: '/api/webhooks/stripe',
    access: 'public',
    organization: 'none',
    what: 'Stripe events, verified by signature (400 unsigned or mis-signed)',
  },
  {
    group: 'Billing and integrations',
    method: 'GET',
    path: '/api/integrations',
    access: 'member',
    organization: 'header',
    what: 'Integrations with their delivery figures of the last 7 days (secrets masked)',
  },
  {
    group: 'Billing and integrations',
    method: 'POST',
    path: '/api/integrations',
    access: 'admin',
    organization: 'header',
    what: 'Add an integration (402 after the trial); a webhook’s signing secret or an API integration’s first key is answered once',
  },
  {
    group: 'Billing and integrations',
    method: 'PUT',
    path: '/api/integrations/:id',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Edit an integration or switch it on or off (secrets left out or masked are kept)',
  },
  {
    group: 'Billing and integrations',
    method: 'DELETE',
    path: '/api/integrations/:id',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Delete an integration and its API keys',
  },
  {
    group: 'Billing and integrations',
    method: 'POST',
    path: '/api/integrations/:id/rotate-secret',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Replace a webhook’s signing secret (answered once)',
  },
  {
    group: 'Billing and integrations',
    method: 'POST',
    path: '/api/integrations/:id/test',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Send a test message now (recorded in the delivery log)',
  },
  {
    group: 'Billing and integrations',
    method: 'GET',
    path: '/api/integrations/:id/deliveries',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'The integration’s messages, newest first',
  },
  {
    group: 'Billing and integrations',
    method: 'GET',
    path: '/api/integrations/:id/slack-channels',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'The Slack channels the integration’s bot token sees (the staff channel’s choices)',
  },
  {
    group: 'Billing and integrations',
    method: 'GET',
    path: '/api/integrations/:id/api-keys',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'An API integration’s keys (never the keys themselves)',
  },
  {
    group: 'Billing and integrations',
    method: 'POST',
    path: '/api/integrations/:id/api-keys',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Create an API key (answered once, stored hashed)',
  },
  {
    group: 'Billing and integrations',
    method: 'DELETE',
    path: '/api/integrations/:id/api-keys/:keyId',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Revoke an API key',
  },

  // Super admin (specification §7): the platform operator's console
  {
    group: 'Super admin',
    method: 'GET',
    path: '/api/super-admin/stats',
    access: 'superAdmin',
    organization: 'none',
    what: 'Platform statistics',
  },
  {
    group: 'Super admin',
    method: 'GET',
    path: '/api/super-admin/organizations',
    access: 'superAdmin',
    organization: 'none',
    what: 'All organizations, searched and paged',
  },
  {
    group: 'Super admin',
    method: 'PATCH',
    path: '/api/super-admin/organizations/:orgId',
    access: 'superAdmin',
    organization: 'none',
    what: "Change an organization's plan or subscription status",
  },
  {
    group: 'Super admin',
    method: 'GET',
    path: '/api/super-admin/users',
    access: 'superAdmin',
    organization: 'none',
    what: 'All users, searched and paged',
  },
  {
    group: 'Super admin',
    method: 'PATCH',
    path: '/api/super-admin/users/:userId',
    access: 'superAdmin',
    organization: 'none',
    what: 'Grant or revoke super admin (not one’s own)',
  },
  {
    group: 'Super admin',
    method: 'GET',
    path: '/api/super-admin/logs',
    access: 'superAdmin',
    organization: 'none',
    what: 'System logs: operator changes, repeated failed sign-ins, refused payment webhooks',
  },

  {
    group: 'Super admin',
    method: 'GET',
    path: '/api/super-admin/organizations/:orgId/domains',
    access: 'superAdmin',
    organization: 'none',
    what: "An organization's email domains",
  },
  {
    group: 'Super admin',
    method: 'POST',
    path: '/api/super-admin/organizations/:orgId/domains/:id/verify',
    access: 'superAdmin',
    organization: 'none',
    what: "Verify an organization's pending email domain (decision 058)",
  },

  // Single sign-on: the organization's verified email domains (decision 058)
  {
    group: 'Single sign-on',
    method: 'GET',
    path: '/api/domains',
    access: 'admin',
    organization: 'header',
    what: 'Email domains with their TXT records',
  },
  {
    group: 'Single sign-on',
    method: 'POST',
    path: '/api/domains',
    access: 'admin',
    organization: 'header',
    what: 'Claim an email domain',
  },
  {
    group: 'Single sign-on',
    method: 'POST',
    path: '/api/domains/:id/verify',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Verify a domain by its DNS TXT record',
  },
  {
    group: 'Single sign-on',
    method: 'DELETE',
    path: '/api/domains/:id',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Remove an email domain',
  },
  {
    group: 'Single sign-on',
    method: 'GET',
    path: '/api/sso/connection',
    access: 'admin',
    organization: 'header',
    what: "The organization's single sign-on connection",
  },
  {
    group: 'Single sign-on',
    method: 'PUT',
    path: '/api/sso/connection',
    access: 'admin',
    organization: 'header',
    bodyRefs: ['breakGlassUserId'],
    what: 'Set up or change single sign-on',
  },
  {
    group: 'Single sign-on',
    method: 'DELETE',
    path: '/api/sso/connection',
    access: 'admin',
    organization: 'header',
    what: 'Remove single sign-on',
  },
  {
    group: 'Single sign-on',
    method: 'POST',
    path: '/api/sso/connection/test',
    access: 'admin',
    organization: 'header',
    what: "Read the provider's discovery document",
  },
  {
    group: 'Single sign-on',
    method: 'POST',
    path: '/api/sso/lookup',
    access: 'public',
    organization: 'none',
    what: 'Whether an address signs in through its provider',
  },
  {
    group: 'Single sign-on',
    method: 'GET',
    path: '/api/sso/start',
    access: 'public',
    organization: 'none',
    what: "Go to the address's identity provider",
  },
  {
    group: 'Single sign-on',
    method: 'GET',
    path: '/api/sso/oidc/callback',
    access: 'public',
    organization: 'none',
    what: "The OpenID provider's answer",
  },
  {
    group: 'Single sign-on',
    method: 'GET',
    path: '/api/sso/saml/service-provider',
    access: 'admin',
    organization: 'header',
    what: 'What to register at the SAML provider (our entity id, ACS URL, metadata URL)',
  },
  // SAML 2.0 (decision 062): what the identity provider reaches, no session. The organization is
  // named in the path for the provider, not as a caller's: anybody may call them.
  {
    group: 'Single sign-on',
    method: 'GET',
    path: '/api/sso/saml/:organizationId/metadata',
    access: 'public',
    organization: 'none',
    what: 'Our SAML service provider metadata for the organization (entity id, ACS URL)',
  },
  {
    group: 'Single sign-on',
    method: 'POST',
    path: '/api/sso/saml/:organizationId/acs',
    access: 'public',
    organization: 'none',
    what: "The SAML assertion consumer service: the provider's signed response signs the person in (cross-site POST)",
  },

  // The resident roster (decision 061)
  {
    group: 'Roster',
    method: 'GET',
    path: '/api/roster/sources',
    access: 'admin',
    organization: 'header',
    what: 'The roster source (secrets never replied)',
  },
  {
    group: 'Roster',
    method: 'POST',
    path: '/api/roster/sources',
    access: 'admin',
    organization: 'header',
    what: 'Set up the roster source (HTTPS or SFTP, mapping, schedule)',
  },
  {
    group: 'Roster',
    method: 'PUT',
    path: '/api/roster/sources/:id',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Change the roster source',
  },
  {
    group: 'Roster',
    method: 'DELETE',
    path: '/api/roster/sources/:id',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Remove the roster source and its runs',
  },
  {
    group: 'Roster',
    method: 'POST',
    path: '/api/roster/sources/:id/run',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Run the roster now',
  },
  {
    group: 'Roster',
    method: 'GET',
    path: '/api/roster/runs',
    access: 'admin',
    organization: 'header',
    what: 'Roster runs with their counts and errors',
  },
  {
    group: 'Roster',
    method: 'GET',
    path: '/api/roster/runs/:id/preview',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: "A roster run's preview",
  },
  {
    group: 'Roster',
    method: 'POST',
    path: '/api/roster/runs/:id/approve',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Approve a waiting roster run',
  },
  {
    group: 'Roster',
    method: 'POST',
    path: '/api/roster/runs/:id/reject',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Reject a waiting roster run',
  },

  // Directory (SCIM) provisioning (decision 060): tokens in Settings, the protocol at /scim/v2
  {
    group: 'Directory (SCIM)',
    method: 'GET',
    path: '/api/scim/tokens',
    access: 'admin',
    organization: 'header',
    what: 'SCIM bearer tokens with their last use',
  },
  {
    group: 'Directory (SCIM)',
    method: 'POST',
    path: '/api/scim/tokens',
    access: 'admin',
    organization: 'header',
    what: 'Create a SCIM bearer token (answered once)',
  },
  {
    group: 'Directory (SCIM)',
    method: 'POST',
    path: '/api/scim/tokens/:id/revoke',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Revoke a SCIM bearer token',
  },
  {
    group: 'Directory (SCIM)',
    method: 'GET',
    path: '/api/scim/requests',
    access: 'admin',
    organization: 'header',
    what: 'The SCIM calls of the last 30 days (without filter values)',
  },
  {
    group: 'Directory (SCIM)',
    method: 'GET',
    path: '/scim/v2/ServiceProviderConfig',
    access: 'scim',
    organization: 'bearer',
    what: 'What the SCIM service supports',
  },
  {
    group: 'Directory (SCIM)',
    method: 'GET',
    path: '/scim/v2/ResourceTypes',
    access: 'scim',
    organization: 'bearer',
    what: 'SCIM resource types',
  },
  {
    group: 'Directory (SCIM)',
    method: 'GET',
    path: '/scim/v2/ResourceTypes/:id',
    access: 'scim',
    organization: 'bearer',
    what: 'One SCIM resource type',
  },
  {
    group: 'Directory (SCIM)',
    method: 'GET',
    path: '/scim/v2/Schemas',
    access: 'scim',
    organization: 'bearer',
    what: 'SCIM schemas',
  },
  {
    group: 'Directory (SCIM)',
    method: 'GET',
    path: '/scim/v2/Schemas/:id',
    access: 'scim',
    organization: 'bearer',
    what: 'One SCIM schema',
  },
  {
    group: 'Directory (SCIM)',
    method: 'GET',
    path: '/scim/v2/Users',
    access: 'scim',
    organization: 'bearer',
    what: 'Users (recipients kept by SCIM), by filter and page',
  },
  {
    group: 'Directory (SCIM)',
    method: 'POST',
    path: '/scim/v2/Users',
    access: 'scim',
    organization: 'bearer',
    what: 'Provision a user as a recipient (adopts a hand-typed one with the same email)',
  },
  {
    group: 'Directory (SCIM)',
    method: 'GET',
    path: '/scim/v2/Users/:id',
    access: 'scim',
    organization: 'bearer',
    rowParam: 'id',
    what: 'One user',
  },
  {
    group: 'Directory (SCIM)',
    method: 'PUT',
    path: '/scim/v2/Users/:id',
    access: 'scim',
    organization: 'bearer',
    rowParam: 'id',
    what: 'Replace a user',
  },
  {
    group: 'Directory (SCIM)',
    method: 'PATCH',
    path: '/scim/v2/Users/:id',
    access: 'scim',
    organization: 'bearer',
    rowParam: 'id',
    what: 'Change a user (Entra ID and Okta forms)',
  },
  {
    group: 'Directory (SCIM)',
    method: 'DELETE',
    path: '/scim/v2/Users/:id',
    access: 'scim',
    organization: 'bearer',
    rowParam: 'id',
    what: 'Deactivate a user (never erased)',
  },
  {
    group: 'Directory (SCIM)',
    method: 'GET',
    path: '/scim/v2/Groups',
    access: 'scim',
    organization: 'bearer',
    what: 'Groups (departments, households), by filter and page',
  },
  {
    group: 'Directory (SCIM)',
    method: 'POST',
    path: '/scim/v2/Groups',
    access: 'scim',
    organization: 'bearer',
    what: 'Create a group',
  },
  {
    group: 'Directory (SCIM)',
    method: 'GET',
    path: '/scim/v2/Groups/:id',
    access: 'scim',
    organization: 'bearer',
    rowParam: 'id',
    what: 'One group with its members',
  },
  {
    group: 'Directory (SCIM)',
    method: 'PUT',
    path: '/scim/v2/Groups/:id',
    access: 'scim',
    organization: 'bearer',
    rowParam: 'id',
    what: 'Replace a group',
  },
  {
    group: 'Directory (SCIM)',
    method: 'PATCH',
    path: '/scim/v2/Groups/:id',
    access: 'scim',
    organization: 'bearer',
    rowParam: 'id',
    what: 'Change a group and its members',
  },
  {
    group: 'Directory (SCIM)',
    method: 'DELETE',
    path: '/scim/v2/Groups/:id',
    access: 'scim',
    organization: 'bearer',
    rowParam: 'id',
    what: 'Delete a group (its members stay)',
  },

  // The live desk (decision 043)
  {
    group: 'Live desk',
    method: 'GET',
    path: '/api/events',
    access: 'member',
    organization: 'query',
    what: "The organization's changes as server-sent events",
  },

  // Dashboard, history, reports
  {
    group: 'Dashboard and reports',
    method: 'GET',
    path: '/api/dashboard/stats',
    access: 'member',
    organization: 'header',
    what: 'The four stat cards',
  },
  {
    group: 'Dashboard and reports',
    method: 'GET',
    path: '/api/dashboard/recent-activity',
    access: 'member',
    organization: 'header',
    what: 'The latest mail items',
  },
  {
    group: 'Dashboard and reports',
    method: 'GET',
    path: '/api/dashboard/trends',
    access: 'member',
    organization: 'header',
    what: 'The trend texts under the stat cards',
  },
  {
    group: 'Dashboard and reports',
    method: 'GET',
    path: '/api/history',
    access: 'member',
    organization: 'header',
    what: 'Mail items in the History filter',
  },
  {
    group: 'Dashboard and reports',
    method: 'GET',
    path: '/api/history/stats',
    access: 'member',
    organization: 'header',
    what: 'History stat cards',
  },
  {
    group: 'Dashboard and reports',
    method: 'GET',
    path: '/api/history/export',
    access: 'member',
    organization: 'header',
    what: 'History as CSV',
  },
  {
    group: 'Dashboard and reports',
    method: 'GET',
    path: '/api/analytics',
    access: 'member',
    organization: 'header',
    what: 'Reports for a range of days',
  },

  // Recipients
  {
    group: 'Recipients',
    method: 'GET',
    path: '/api/recipients',
    access: 'member',
    organization: 'header',
    what: 'Recipients (search, active, paging)',
  },
  {
    group: 'Recipients',
    method: 'GET',
    path: '/api/recipients/summary',
    access: 'member',
    organization: 'header',
    what: 'Total and active recipients',
  },
  {
    group: 'Recipients',
    method: 'GET',
    path: '/api/recipients/:id',
    access: 'member',
    organization: 'header',
    rowParam: 'id',
    what: 'One recipient',
  },
  {
    group: 'Recipients',
    method: 'POST',
    path: '/api/recipients',
    access: 'member',
    organization: 'header',
    what: 'Add a recipient',
  },
  {
    group: 'Recipients',
    method: 'PUT',
    path: '/api/recipients/:id',
    access: 'member',
    organization: 'header',
    rowParam: 'id',
    what: 'Edit, activate or deactivate a recipient',
  },
  {
    group: 'Recipients',
    method: 'DELETE',
    path: '/api/recipients/:id',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Delete a recipient',
  },
  {
    group: 'Recipients',
    method: 'POST',
    path: '/api/recipients/import/preview',
    access: 'admin',
    organization: 'header',
    what: 'Check a CSV of recipients without writing',
  },
  {
    group: 'Recipients',
    method: 'POST',
    path: '/api/recipients/import',
    access: 'admin',
    organization: 'header',
    what: 'Import a CSV of recipients',
  },
  {
    group: 'Recipients',
    method: 'GET',
    path: '/api/recipients/:id/personal-data',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Download everything held about a recipient (JSON; audited)',
  },
  {
    group: 'Recipients',
    method: 'POST',
    path: '/api/recipients/:id/erase',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: "Erase a recipient's personal data everywhere (the row stays, anonymised; idempotent)",
  },

  // Pickups: codes and hand-over
  {
    group: 'Pickups',
    method: 'GET',
    path: '/api/pickups/lookup',
    access: 'member',
    organization: 'header',
    queryRefs: ['code'],
    what: 'Whose pickup code it is and their items still waiting (404 for a wrong, regenerated or other organization’s code)',
  },
  {
    group: 'Pickups',
    method: 'GET',
    path: '/api/recipients/:id/pickup-lookup',
    access: 'member',
    organization: 'header',
    rowParam: 'id',
    what: 'The same, found by the recipient (a hand-over from an item’s row): no code guessed, a deactivated recipient found too',
  },
  {
    group: 'Pickups',
    method: 'GET',
    path: '/api/expected-packages/match',
    access: 'member',
    organization: 'header',
    queryRefs: ['tracking'],
    what: 'Who expects a tracking number, for the Log Mail dialog (404 when no one in the organization does)',
  },
  {
    group: 'Pickups',
    method: 'GET',
    path: '/api/recipients/:id/pickup-code',
    access: 'member',
    organization: 'header',
    rowParam: 'id',
    what: 'A recipient’s pickup code and its QR',
  },
  {
    group: 'Pickups',
    method: 'POST',
    path: '/api/recipients/:id/pickup-code',
    access: 'member',
    organization: 'header',
    rowParam: 'id',
    what: 'A new pickup code for a recipient; the old one stops working',
  },
  {
    group: 'Pickups',
    method: 'GET',
    path: '/api/recipients/:id/proxies',
    access: 'member',
    organization: 'header',
    rowParam: 'id',
    what: 'The people a recipient allows to collect for them',
  },
  {
    group: 'Pickups',
    method: 'POST',
    path: '/api/recipients/:id/proxies',
    access: 'member',
    organization: 'header',
    rowParam: 'id',
    what: 'Name someone who may collect for a recipient',
  },
  {
    group: 'Pickups',
    method: 'DELETE',
    path: '/api/recipients/:id/proxies/:proxyId',
    access: 'member',
    organization: 'header',
    rowParam: 'id',
    what: 'Take someone off a recipient’s list of proxies',
  },
  {
    group: 'Recipient page',
    method: 'POST',
    path: '/api/portal/links',
    access: 'public',
    organization: 'none',
    what: 'Send a sign-in link to the recipients with this email or phone (same answer whoever it is)',
  },
  {
    group: 'Recipient page',
    method: 'POST',
    path: '/api/portal/session',
    access: 'public',
    organization: 'none',
    what: "Open a sign-in link: its token for the recipient's session cookie",
  },
  {
    group: 'Recipient page',
    method: 'DELETE',
    path: '/api/portal/session',
    access: 'recipient',
    organization: 'none',
    what: "Sign out of the recipient's page",
  },
  {
    group: 'Recipient page',
    method: 'GET',
    path: '/api/portal/me',
    access: 'recipient',
    organization: 'none',
    what: 'Who is signed in, their organization and pickup code',
  },
  {
    group: 'Recipient page',
    method: 'POST',
    path: '/api/portal/pickup-code',
    access: 'recipient',
    organization: 'none',
    what: 'A new pickup code for the signed-in recipient',
  },
  {
    group: 'Recipient page',
    method: 'PUT',
    path: '/api/portal/language',
    access: 'recipient',
    organization: 'none',
    what: "The recipient's language, for their page and messages",
  },
  {
    group: 'Recipient page',
    method: 'PUT',
    path: '/api/portal/preferences',
    access: 'recipient',
    organization: 'none',
    what: 'How the recipient wants to hear about their mail',
  },
  {
    group: 'Recipient page',
    method: 'GET',
    path: '/api/portal/items',
    access: 'recipient',
    organization: 'none',
    what: "The recipient's waiting or past items",
  },
  {
    group: 'Recipient page',
    method: 'GET',
    path: '/api/portal/items/:id/photo',
    access: 'recipient',
    organization: 'none',
    what: "The photo of one of the recipient's items",
  },
  {
    group: 'Recipient page',
    method: 'GET',
    path: '/api/portal/items/:id/photo/thumbnail',
    access: 'recipient',
    organization: 'none',
    what: "The photo thumbnail of one of the recipient's items",
  },
  {
    group: 'Recipient page',
    method: 'PUT',
    path: '/api/portal/items/:id/hold',
    access: 'recipient',
    organization: 'none',
    what: 'Hold a waiting item until a date, or lift the hold',
  },
  {
    group: 'Recipient page',
    method: 'GET',
    path: '/api/portal/proxies',
    access: 'recipient',
    organization: 'none',
    what: 'The people who may collect for the recipient',
  },
  {
    group: 'Recipient page',
    method: 'POST',
    path: '/api/portal/proxies',
    access: 'recipient',
    organization: 'none',
    what: 'Name someone who may collect for the recipient',
  },
  {
    group: 'Recipient page',
    method: 'DELETE',
    path: '/api/portal/proxies/:proxyId',
    access: 'recipient',
    organization: 'none',
    what: "Take someone off the recipient's proxies",
  },
  {
    group: 'Recipient page',
    method: 'GET',
    path: '/api/portal/expected',
    access: 'recipient',
    organization: 'none',
    what: 'The tracking numbers the recipient expects, and those that arrived lately',
  },
  {
    group: 'Recipient page',
    method: 'POST',
    path: '/api/portal/expected',
    access: 'recipient',
    organization: 'none',
    what: 'Register a tracking number the recipient expects, or those of a pasted shipping email',
  },
  {
    group: 'Recipient page',
    method: 'DELETE',
    path: '/api/portal/expected/:id',
    access: 'recipient',
    organization: 'none',
    what: 'Stop expecting a tracking number',
  },
  {
    group: 'Pickups',
    method: 'POST',
    path: '/api/handovers',
    access: 'member',
    organization: 'header',
    bodyRefs: ['itemIds'],
    what: 'Hand items over with proof (collector, identification, signature, photo), all or none',
  },
  {
    group: 'Pickups',
    method: 'GET',
    path: '/api/handovers/:id',
    access: 'member',
    organization: 'header',
    rowParam: 'id',
    what: 'The proof of a hand-over and the items it took',
  },

  // Mailrooms and storage locations
  {
    group: 'Mailrooms and locations',
    method: 'GET',
    path: '/api/mailrooms',
    access: 'member',
    organization: 'header',
    what: 'Mailrooms',
  },
  {
    group: 'Mailrooms and locations',
    method: 'POST',
    path: '/api/mailrooms',
    access: 'admin',
    organization: 'header',
    what: 'Create a mailroom',
  },
  {
    group: 'Mailrooms and locations',
    method: 'PUT',
    path: '/api/mailrooms/:id',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Update a mailroom',
  },
  {
    group: 'Mailrooms and locations',
    method: 'DELETE',
    path: '/api/mailrooms/:id',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Delete an empty mailroom',
  },
  {
    group: 'Mailrooms and locations',
    method: 'GET',
    path: '/api/mailroom-locations',
    access: 'member',
    organization: 'header',
    what: 'Storage locations (filter by mailroomId)',
  },
  {
    group: 'Mailrooms and locations',
    method: 'POST',
    path: '/api/mailroom-locations',
    access: 'admin',
    organization: 'header',
    bodyRefs: ['mailroomId'],
    what: 'Create a storage location',
  },
  {
    group: 'Mailrooms and locations',
    method: 'PUT',
    path: '/api/mailroom-locations/:id',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    bodyRefs: ['mailroomId'],
    what: 'Update or move a storage location',
  },
  {
    group: 'Mailrooms and locations',
    method: 'DELETE',
    path: '/api/mailroom-locations/:id',
    access: 'admin',
    organization: 'header',
    rowParam: 'id',
    what: 'Delete a storage location that holds no open items',
  },

  // Mail items and photos
  {
    group: 'Mail items',
    method: 'GET',
    path: '/api/mail-items',
    access: 'member',
    organization: 'header',
    what: 'Mail items (filters, paging)',
  },
  {
    group: 'Mail items',
    method: 'GET',
    path: '/api/mail-items/pending-summary',
    access: 'member',
    organization: 'header',
    what: 'Pending Pickups counters',
  },
  {
    group: 'Mail items',
    method: 'GET',
    path: '/api/mail-items/needs-recipient',
    access: 'member',
    organization: 'header',
    what: 'Items logged without a recipient (decision 041)',
  },
  {
    group: 'Mail items',
    method: 'GET',
    path: '/api/mail-items/needs-recipient/count',
    access: 'member',
    organization: 'header',
    what: 'How many items wait for a recipient (the navigation badge)',
  },
  {
    group: 'Mail items',
    method: 'POST',
    path: '/api/mail-items/needs-recipient',
    access: 'member',
    organization: 'header',
    bodyRefs: ['locationId', 'mailroomId'],
    what: 'Log a mail item without a recipient',
  },
  {
    group: 'Mail items',
    method: 'POST',
    path: '/api/mail-items/:id/resolve',
    access: 'member',
    organization: 'header',
    rowParam: 'id',
    bodyRefs: ['recipientId'],
    what: 'Give an item that needs a recipient its recipient (notifies them)',
  },
  {
    group: 'Mail items',
    method: 'GET',
    path: '/api/mail-items/:id',
    access: 'member',
    organization: 'header',
    rowParam: 'id',
    what: 'One mail item',
  },
  {
    group: 'Mail items',
    method: 'GET',
    path: '/api/mail-items/:id/history',
    access: 'member',
    organization: 'header',
    rowParam: 'id',
    what: "The item's timeline",
  },
  {
    group: 'Mail items',
    method: 'POST',
    path: '/api/mail-items',
    access: 'member',
    organization: 'header',
    bodyRefs: ['recipientId', 'locationId', 'mailroomId'],
    what: 'Log a mail item',
  },
  {
    group: 'Mail items',
    method: 'PUT',
    path: '/api/mail-items/:id',
    access: 'member',
    organization: 'header',
    rowParam: 'id',
    bodyRefs: ['recipientId', 'locationId', 'mailroomId'],
    what: 'Edit a mail item or change its status',
  },
  {
    group: 'Mail items',
    method: 'POST',
    path: '/api/mail-items/:id/delete',
    access: 'member',
    organization: 'header',
    rowParam: 'id',
    what: 'Delete a mail item (history kept)',
  },
  {
    group: 'Mail items',
    method: 'DELETE',
    path: '/api/mail-items/:id',
    access: 'member',
    organization: 'header',
    rowParam: 'id',
    what: 'Delete a mail item (history kept)',
  },
  {
    group: 'Mail items',
    method: 'GET',
    path: '/api/mail-items/:id/notifications',
    access: 'member',
    organization: 'header',
    rowParam: 'id',
    what: "The item's messages: what was sent, when, and whether it was delivered",
  },
  {
    group: 'Mail items',
    method: 'GET',
    path: '/api/photos/:id',
    access: 'member',
    organization: 'row',
    rowParam: 'id',
    what: "A mail item's photo",
  },
  {
    group: 'Mail items',
    method: 'GET',
    path: '/api/photos/:id/thumbnail',
    access: 'member',
    organization: 'row',
    rowParam: 'id',
    what: "A mail item's photo thumbnail",
  },

  // Operations
  {
    group: 'Operations',
    method: 'GET',
    path: '/api/health',
    access: 'public',
    organization: 'none',
    what: 'Liveness: the process answers; the database is not asked',
  },
  {
    group: 'Operations',
    method: 'GET',
    path: '/api/ready',
    access: 'public',
    organization: 'none',
    what: 'Readiness: database, notification queue and worker, change feed (503 with Retry-After while one fails)',
  },
  {
    group: 'Operations',
    method: 'GET',
    path: '/metrics',
    access: 'public',
    organization: 'none',
    what: 'Prometheus metrics: needs `Authorization: Bearer` METRICS_TOKEN (401 without it), 404 when METRICS_TOKEN is unset',
  },
  {
    group: 'Operations',
    method: 'GET',
    path: '/api/unsubscribe/:token',
    access: 'public',
    organization: 'none',
    what: "A recipient message's unsubscribe link: a page asking to confirm (404 for an invalid token)",
  },
  {
    group: 'Operations',
    method: 'POST',
    path: '/api/unsubscribe/:token',
    access: 'public',
    organization: 'none',
    what: 'Unsubscribe: the confirm button or a mail client one-click (404 for an invalid token)',
  },
  docs('/api/docs', 'API documentation (Swagger UI)'),
  docs('/api/docs/', 'API documentation (Swagger UI)'),
  docs('/api/docs/json', 'OpenAPI document (JSON)'),
  docs('/api/docs/yaml', 'OpenAPI document (YAML)'),
  docs('/api/docs/static/index.html', 'Swagger UI page; redirects to /api/docs/'),
  docs('/api/docs/static/swagger-initializer.js', 'Swagger UI start-up script'),
  docs('/api/docs/static/*', 'Swagger UI assets'),
] as const satisfies readonly RoleRow[];

export type RoleTableRow = (typeof ROLE_TABLE)[number];
/** "METHOD /path" of each row (one key per row, not every method with every path). */
type KeyOf<R> = R extends { method: infer M extends string; path: infer P extends string } ? `${M} ${P}` : never;
export type RouteKey = KeyOf<RoleTableRow>;
/** Keys of the rows whose route is registered: the walk needs a fixture for each. */
export type LiveRouteKey = KeyOf<Exclude<RoleTableRow, { planned: true }>>;

export const isPlanned = (row: RoleRow) => row.planned === true;

export type LiveRow = Exclude<RoleTableRow, { planned: true }>;
export const isLive = (row: RoleTableRow): row is LiveRow => !isPlanned(row);
export const liveKey = (row: LiveRow) => `${row.method} ${row.path}` as LiveRouteKey;

export const routeKey = (row: Pick<RoleRow, 'method' | 'path'>) => `${row.method} ${row.path}` as RouteKey;

/**
 * Left out of the table: the built web client's files, registered only when `dist/client` is
 * built (`/assets/*` and one GET route per file there, e.g. `/index.html`, `/favicon.svg`), public.
 */
export const CLIENT_FILES_DIR = 'dist/client';

/** What each kind of refused caller gets, derived from a row. */
export function refusals(row: RoleRow) {
  const path = row.organization === 'path' || row.organization === 'row' || row.organization === 'query';
  return {
    signedOut: row.access === 'public' ? null : 401,
    /** A member who is not an admin. */
    member:
      row.access === 'recipient' || row.access === 'scim'
        ? 401
        : row.access === 'admin' || row.access === 'superAdmin'
          ? 403
          : null,
    /** An organization admin who is not a super admin. */
    admin: row.access === 'recipient' || row.access === 'scim' ? 401 : row.access === 'superAdmin' ? 403 : null,
    /** A signed-in user who is not a member of the organization named. */
    nonMember:
      row.access === 'recipient' || row.access === 'scim'
        ? 401
        : row.access === 'superAdmin' || row.organization === 'header'
          ? 403
          : path
            ? 404
            : null,
    /** An admin naming another organization's row (or, for path calls, another organization). */
    // SCIM's rows are walked with tokens (role-table.test.ts: "a SCIM token"): a session is nobody there.
    otherOrganizationRow: row.access !== 'scim' && (row.rowParam || row.queryRefs || path) ? 404 : null,
  } as const;
}

const ACCESS_LABEL: Record<Access, string> = {
  public: 'public',
  signedIn: 'signed in',
  member: 'member of the organization',
  admin: 'admin of the organization',
  superAdmin: 'super admin',
  recipient: 'the recipient (their page’s session)',
  scim: 'the organization’s SCIM token',
};

function organizationLabel(row: RoleRow) {
  switch (row.organization) {
    case 'none':
      return '—';
    case 'header':
      return '`x-organization-id`';
    case 'path':
      return `path \`${row.path.includes(':orgId') ? ':orgId' : ':id'}\``;
    case 'row':
      return "the photo's organization";
    case 'token':
      return "the invitation's organization";
    case 'query':
      return 'query `organizationId`';
    case 'bearer':
      return "the SCIM token's organization";
  }
}

function refusedLabels(row: RoleRow) {
  const r = refusals(row);
  const nonMember =
    row.access === 'superAdmin'
      ? '403'
      : r.nonMember === 401
        ? '401'
        : r.nonMember === 403
          ? '403 not a member'
          : r.nonMember === 404
            ? '404'
            : row.organization === 'token'
              ? 'allowed'
              : 'n/a';
  return {
    signedOut: r.signedOut === null ? 'allowed' : String(r.signedOut),
    member: r.member !== null ? String(r.member) : 'allowed',
    nonMember,
    otherRow: otherRowLabel(row),
  };
}

function otherRowLabel(row: RoleRow) {
  if (row.access === 'scim') return row.rowParam ? `404 (\`:${row.rowParam}\`, with the other's token)` : 'n/a';
  const named: string[] = [];
  if (row.organization === 'path') named.push(`\`:${row.path.includes(':orgId') ? 'orgId' : 'id'}\``);
  if (row.organization === 'query') named.push('query `organizationId`');
  if (row.rowParam) named.push(`\`:${row.rowParam}\``);
  if (row.bodyRefs) named.push(...row.bodyRefs.map((f) => `body \`${f}\``));
  if (row.queryRefs) named.push(...row.queryRefs.map((f) => `query \`${f}\``));
  return named.length ? `404 (${named.join(', ')})` : 'n/a';
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

/** The whole of docs/roles.md (before Prettier formats it). */
export function renderRolesMarkdown(table: readonly RoleRow[] = ROLE_TABLE): string {
  const lines: string[] = [
    '# Who may call what',
    '',
    '<!-- Generated from src/server/test/role-table.ts by `npx vitest run src/server/test/role-table.test.ts -u`; do not edit by hand. -->',
    '',
    'Every endpoint of the server with the callers it admits, as enforced on the server and walked by',
    '`src/server/test/role-table.test.ts` with a signed-out caller, a member, an admin and an admin of',
    'another organization. The test fails when a route is registered without a row here, or a row has',
    'no route.',
    '',
    '- **Who may call**: public (anybody), signed in (any session), member or admin of the organization',
    '  the call names, super admin, or the recipient signed in to their own page (decision 032): a session of',
    '  its own, opened by a single-use link; staff sessions get 401 there, and it opens no staff call.',
    '- **Organization**: how the call names its organization. `x-organization-id` must name one of the',
    "  caller's organizations (missing: 400). Calls naming it in the path answer 404 to non-members so",
    '  organization ids cannot be probed.',
    '- **Signed out**: 401 `{"message": "Not authenticated", "code": "unauthenticated"}`.',
    '- **Member**: what a member who is not an admin gets: 403 `{"code": "admin_required"}` on admin calls.',
    '  Super-admin calls answer 403 to everybody whose `isSuperAdmin` is false, organization admins included.',
    '- **Non-member**: a signed-in user of another organization naming this one: 403',
    '  `{"message": "You are not a member of this organization", "code": "not_a_member"}` for the header,',
    '  404 for the path and for photos.',
    "- **Other organization's row**: an admin naming, in the path (or the body fields listed), a row of",
    '  another organization, with their own organization selected: 404, the same as a missing row.',
    '- Order of checks: the session, the organization and the role are checked before the path, query',
    '  and body (`preValidation` hooks), so a refused caller gets 401 or 403 whatever they send; only a',
    '  caller who may make the call learns what was wrong with the input (400).',
    "- The built web client's files (`/assets/*` and each file of `dist/client`) are public and not listed.",
    '- **API keys** (`Authorization: Bearer pk_…` or `x-api-key`, decision 011): the calls naming the organization in',
    "  `x-organization-id` admit a key as a member of the key's organization (the header may be left out; another",
    '  organization answers 403); every other signed-in call answers 403 `{"code": "api_key_not_allowed"}`. Walked too.',
    "- **SCIM** (`/scim/v2`, decision 060): the organization's SCIM bearer token only; a session, an API key, a",
    "  revoked or unknown token answer 401 in SCIM's error JSON; another organization's ids answer 404. Walked too.",
    ...(table.some(isPlanned)
      ? [
          '- Rows marked _(planned)_ are calls of the specification the server does not serve yet: the test',
          '  lists them as todo, and fails once their route is registered until `planned` is removed and the',
          '  row is walked.',
        ]
      : []),
    '',
  ];
  const groups = [...new Set(table.map((r) => r.group))];
  for (const group of groups) {
    lines.push(`## ${group}`, '');
    lines.push(
      "| Method | Path | Who may call | Organization | Signed out | Member | Non-member | Other organization's row | What |",
    );
    lines.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const row of table.filter((r) => r.group === group)) {
      const l = refusedLabels(row);
      lines.push(
        `| ${[
          row.method,
          `\`${row.path}\``,
          ACCESS_LABEL[row.access],
          organizationLabel(row),
          l.signedOut,
          l.member,
          l.nonMember,
          l.otherRow,
          `${row.what}${row.planned ? ' _(planned)_' : ''}`,
        ]
          .map(cell)
          .join(' | ')} |`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}
