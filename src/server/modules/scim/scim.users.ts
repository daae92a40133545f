import { z } from 'zod';
import { iso } from '../../lib/time';
import type { RecipientRow } from './scim.repository';
import { SCHEMA, booleanOf, getAttr, invalidValue, keyOf, matches, parseFilter } from './scim.protocol';

/**
 * A SCIM User is a recipient (decision 060). What each attribute becomes:
 * userName -> scim_user_name; name.givenName/familyName -> first and last name; the work email
 * (else the primary, else the first) -> email; the work phone (else mobile, primary, first) ->
 * phone; `addresses[type eq "work"].formatted` (Entra's physicalDeliveryOfficeName) -> unit;
 * the enterprise extension's department -> department; externalId, preferredLanguage and active
 * as they are. Everything else a provider sends is accepted and not kept.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The recipient fields a SCIM User sets. */
export type ScimUserFields = {
  scimUserName: string;
  externalId: string | null;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  unit: string | null;
  department: string | null;
  preferredLanguage: string | null;
  /** undefined: the resource did not say (a PUT without `active` keeps the current state). */
  isActive: boolean | undefined;
};

export function toScimUser(
  row: RecipientRow,
  baseUrl: string,
  groups: Array<{ id: string; displayName: string }> = [],
) {
  return {
    schemas: [SCHEMA.user, SCHEMA.enterprise],
    id: row.id,
    ...(row.externalId ? { externalId: row.externalId } : {}),
    userName: row.scimUserName,
    name: {
      givenName: row.firstName,
      familyName: row.lastName,
      formatted: `${row.firstName} ${row.lastName}`.trim(),
    },
    displayName: `${row.firstName} ${row.lastName}`.trim(),
    active: row.isActive,
    emails: row.email ? [{ value: row.email, type: 'work', primary: true }] : [],
    phoneNumbers: row.phone ? [{ value: row.phone, type: 'work', primary: true }] : [],
    addresses: row.unit ? [{ type: 'work', formatted: row.unit, primary: true }] : [],
    ...(row.preferredLanguage ? { preferredLanguage: row.preferredLanguage } : {}),
    // The user's own department only: one a department group gave them is the desk's view, not the directory's.
    [SCHEMA.enterprise]: row.department && !row.departmentGroupId ? { department: row.department } : {},
    groups: groups.map((g) => ({ value: g.id, display: g.displayName, $ref: `${baseUrl}/Groups/${g.id}` })),
    meta: {
      resourceType: 'User',
      created: iso(row.createdAt),
      lastModified: iso(row.updatedAt),
      location: `${baseUrl}/Users/${row.id}`,
    },
  };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** The element of a multi-valued attribute to use: the first matching `type` in order, else the primary, else the first. */
function pick(list: unknown, types: string[]): Json | undefined {
  if (!Array.isArray(list)) return undefined;
  const els = list.filter(isObject);
  for (const type of types) {
    const hit = els.find((el) => matches(parseFilter(`type eq "${type}"`), el));
    if (hit) return hit;
  }
  return els.find((el) => booleanOf(getAttr(el, 'primary')) === true) ?? els[0];
}

function limited(label: string, max: number, value: string | undefined): string | null {
  if (value === undefined) return null;
  if (value.length > max) throw invalidValue(`${label} has at most ${max} characters`);
  return value;
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * First and last name. A last name is required at the desk; when the provider sends none
 * (givenName only, or a displayName), it comes from the displayName's last word, else from a
 * `first.last@…` userName, else the one name given stands for both parts' reading: the given name
 * is kept and the last name repeats nothing (a single "-").
 */
function namesOf(resource: Json, userName: string): { firstName: string; lastName: string } {
  const name = isObject(getAttr(resource, 'name')) ? (getAttr(resource, 'name') as Json) : {};
  let given = str(getAttr(name, 'givenName'));
  let family = str(getAttr(name, 'familyName'));
  const display = str(getAttr(resource, 'displayName')) ?? str(getAttr(name, 'formatted'));
  if (!family && display) {
    const words = display.split(/\s+/);
    if (words.length > 1) {
      family = words.at(-1);
      given ??= words.slice(0, -1).join(' ');
    } else given ??= display;
  }
  if (!family || !given) {
    const local = userName.split('@')[0]!.split(/[._]/).filter(Boolean);
    if (local.length > 1) {
      family ??= capitalised(local.at(-1)!);
      given ??= capitalised(local[0]!);
    }
  }
  given ??= family ?? userName.split('@')[0]!;
  family ??= '-';
  return {
    firstName: limited('name.givenName', 100, given)!,
    lastName: limited('name.familyName', 100, family)!,
  };
}

const Email = z.email();

/** A User resource (POST, PUT, or one PATCH has produced) read as recipient fields; 400 invalidValue when it cannot be. */
export function readUser(resource: unknown): ScimUserFields {
  if (!isObject(resource)) throw invalidValue('The body must be a SCIM User resource');
  const userName = str(getAttr(resource, 'userName'));
  if (!userName) throw invalidValue('userName is required');
  const emailEl = pick(getAttr(resource, 'emails'), ['work']);
  const email = str(emailEl ? getAttr(emailEl, 'value') : undefined)?.toLowerCase();
  if (email !== undefined && !Email.safeParse(email).success)
    throw invalidValue(`"${email.slice(0, 100)}" is not an email address`);
  const phoneEl = pick(getAttr(resource, 'phoneNumbers'), ['work', 'mobile']);
  const addressEl = pick(getAttr(resource, 'addresses'), ['work']);
  const enterpriseKey = keyOf(resource, SCHEMA.enterprise);
  const enterprise = enterpriseKey ? resource[enterpriseKey] : undefined;
  const active = booleanOf(getAttr(resource, 'active'));
  if (active !== undefined && typeof active !== 'boolean') throw invalidValue('active must be true or false');
  const externalId = getAttr(resource, 'externalId');
  if (externalId !== undefined && externalId !== null && typeof externalId !== 'string') {
    throw invalidValue('externalId must be a string');
  }
  return {
    scimUserName: limited('userName', 255, userName)!,
    externalId: limited('externalId', 255, str(externalId)),
    ...namesOf(resource, userName),
    email: limited('The email', 255, email),
    phone: limited('The phone number', 50, str(phoneEl ? getAttr(phoneEl, 'value') : undefined)),
    unit: limited(
      'The work address (unit or office)',
      100,
      str(addressEl ? getAttr(addressEl, 'formatted') : undefined),
    ),
    department: limited('department', 255, str(isObject(enterprise) ? getAttr(enterprise, 'department') : undefined)),
    preferredLanguage: limited('preferredLanguage', 35, str(getAttr(resource, 'preferredLanguage'))),
    isActive: active as boolean | undefined,
  };
}
