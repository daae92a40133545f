/**
 * The object without its undefined values: the fields an update was given ("leave as is"
 * otherwise), or what a stored JSON value or an audit entry should hold.
 */
export function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}
