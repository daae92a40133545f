/**
 * The API's header and storage names. This file imports nothing (no zod): the web client's first
 * chunk reads these constants and must not pull in any schema with them.
 */

/** The header that names the organization a request acts on. */
export const ORGANIZATION_HEADER = 'x-organization-id';
/** Where the client remembers the chosen organization. */
export const SELECTED_ORGANIZATION_KEY = 'selectedOrganizationId';
/** The total of a paginated list travels in this header; the body stays an array (spec §7). */
export const TOTAL_COUNT_HEADER = 'x-total-count';
