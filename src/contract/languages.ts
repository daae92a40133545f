/*
 * The languages the product speaks (issue 44). No zod here: the first chunk of every page reads
 * these constants (the screens' language), and a schema beside them would bring zod along.
 */

/**
 * The languages of the staff's screens: adding one is adding its catalogues under
 * src/locales/<language>/ and the tag here.
 */
export const STAFF_LANGUAGES = ['en', 'es'] as const;
export type StaffLanguage = (typeof STAFF_LANGUAGES)[number];
export const STAFF_LANGUAGE_INVALID = `Language must be one of: ${STAFF_LANGUAGES.join(', ')}`;
