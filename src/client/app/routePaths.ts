/** The screens behind sign-in; a signed-out visit to one goes to /login instead of a 404. */
export const signedInPaths = ['/dashboard', '/mail-intake', '/pending-pickups', '/recipients', '/history', '/settings'];

/** Signed-out pages; a signed-in visit to one goes to / (spec §2). */
export const signedOutPaths = ['/homepage', '/auth', '/login', '/register', '/forgot-password', '/reset-password'];
