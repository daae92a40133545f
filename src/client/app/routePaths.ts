/** The screens behind sign-in; a signed-out visit to one goes to /login instead of a 404. */
export const signedInPaths = [
  '/dashboard',
  '/mail-intake',
  '/pending-pickups',
  '/recipients',
  '/history',
  '/integrations',
  '/settings',
  '/settings-billing',
  '/subscription-management',
  '/checkout',
  '/checkout/demo/:id',
  '/super-admin',
];

/** Signed-out pages; a signed-in visit to one goes to / (spec §2). */
export const signedOutPaths = ['/homepage', '/auth', '/login', '/register', '/forgot-password', '/reset-password'];

/** Signed-out pages that may carry an invitation token (?invitation= or ?token=). */
export const invitationPaths = ['/auth', '/login', '/register'];
