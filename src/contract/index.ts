export * from './common';
export * from './auth';
export * from './two-factor';
export * from './organizations';
export * from './dashboard';
export * from './health';
export * from './invitations';
export * from './pagination';
export * from './recipients';
export * from './mailrooms';
export * from './settings';
export * from './mail-items';
export * from './history';
export * from './audit';
export * from './integrations';
export * from './billing';
export * from './super-admin';

/** The header that names the organization a request acts on. */
export const ORGANIZATION_HEADER = 'x-organization-id';
/** Where the client remembers the chosen organization. */
export const SELECTED_ORGANIZATION_KEY = 'selectedOrganizationId';
