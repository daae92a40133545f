/**
 * What printed labels say to the scanners that read them back, and the print views' addresses.
 * Settings (shelf labels), the desk's lists (pickup slips) and Log Mail (which reads a shelf label)
 * are different features, so the formats they share live here (decision 034).
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A shelf label's QR: a prefix no carrier's barcode starts with, so Log Mail can tell a shelf
 * from a parcel, and the location's id (names change, ids do not).
 */
export const LOCATION_LABEL_PREFIX = 'pigeonhole:location:';
/** A pickup slip's QR: the item's id under its own prefix, never the recipient's pickup code. */
export const ITEM_SLIP_PREFIX = 'pigeonhole:item:';

export const locationLabelContent = (locationId: string) => `${LOCATION_LABEL_PREFIX}${locationId}`;
export const itemSlipContent = (itemId: string) => `${ITEM_SLIP_PREFIX}${itemId}`;

function idAfter(prefix: string, raw: string): string | null {
  const text = raw.trim();
  if (text.slice(0, prefix.length).toLowerCase() !== prefix) return null;
  const id = text.slice(prefix.length);
  return UUID.test(id) ? id.toLowerCase() : null;
}

/** The location id a scanned shelf label holds, or null when the code is something else. */
export const locationIdFromLabel = (raw: string) => idAfter(LOCATION_LABEL_PREFIX, raw);
/** The item id a scanned pickup slip holds, or null. */
export const itemIdFromSlip = (raw: string) => idAfter(ITEM_SLIP_PREFIX, raw);

/**
 * The short reference a slip prints and a person reads aloud: the first eight characters of the
 * item's id, upper case, grouped (3F2A-9C1B): enough to tell one
 * parcel from another at the shelf; the QR beside it holds the whole id.
 */
export function itemReference(itemId: string): string {
  const head = itemId.replace(/-/g, '').slice(0, 8).toUpperCase();
  return `${head.slice(0, 4)}-${head.slice(4)}`;
}

/** At most this many labels or slips in one print view (one page of the desk's lists is 50). */
export const PRINT_MAX_ITEMS = 100;

/** /print/labels for one location, or for every location of a mailroom. */
export function printLabelsPath(organizationId: string, which: { locationId: string } | { mailroomId: string }) {
  const params = new URLSearchParams({ org: organizationId });
  if ('locationId' in which) params.set('location', which.locationId);
  else params.set('mailroom', which.mailroomId);
  return `/print/labels?${params}`;
}

/** /print/slips for one item or several (in that order). */
export function printSlipsPath(organizationId: string, itemIds: readonly string[]) {
  const params = new URLSearchParams({ org: organizationId, items: itemIds.slice(0, PRINT_MAX_ITEMS).join(',') });
  return `/print/slips?${params}`;
}

/**
 * Opens a print view in a tab of its own, so the screen it came from (a half-filled search, an
 * open dialog) stays as it was; the view's Close button closes the tab.
 */
export function openPrintView(path: string) {
  const opened = window.open(path, '_blank');
  // a browser that refuses new tabs: show the view here instead
  if (!opened) window.location.assign(path);
}
