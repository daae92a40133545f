import { badRequest } from '../../lib/errors';

/**
 * A value from one of the organization's lists (package types, statuses…), matched
 * case-insensitively and answered in the list's own spelling; anything else is a 400.
 */
export function valueFromList(list: string[], value: string, message: string): string {
  const found = list.find((v) => v.toLowerCase() === value.toLowerCase());
  if (!found) throw badRequest(`${message}: ${value}`, 'unknown_value');
  return found;
}
