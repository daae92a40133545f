import { parse, type Filter } from 'scim2-parse-filter';
import { AppError } from '../../lib/errors';

/**
 * SCIM 2.0's own pieces (RFC 7643, 7644) that are not about recipients: the schema URNs, the
 * error format, attribute paths, filters and PATCH operations as Entra ID and Okta send them.
 * Attribute names are case-insensitive (RFC 7643 §2.1), and so are the operations Entra capitalises.
 */

export const SCHEMA = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  enterprise: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  /** Pigeonhole's Group extension (decision 060): `kind`, department (the default) or household. */
  groupKind: 'urn:pigeonhole:params:scim:schemas:extension:2.0:Group',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

/** An error SCIM's way: `{schemas, status, scimType?, detail}` (RFC 7644 §3.12), thrown like any AppError. */
export class ScimError extends AppError {
  constructor(
    statusCode: number,
    detail: string,
    readonly scimType?: ScimType,
  ) {
    super(statusCode, detail, scimType ?? `scim_${statusCode}`);
  }
}

export const scimErrorBody = (status: number, detail: string, scimType?: string) => ({
  schemas: [SCHEMA.error],
  status: String(status),
  ...(scimType ? { scimType } : {}),
  detail,
});

export const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');
export const invalidSyntax = (detail: string) => new ScimError(400, detail, 'invalidSyntax');
export const invalidPath = (detail: string) => new ScimError(400, detail, 'invalidPath');

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The key of `obj` that is `name` ignoring case (attribute names are case-insensitive). */
export function keyOf(obj: Json, name: string): string | undefined {
  const lower = name.toLowerCase();
  return Object.keys(obj).find((k) => k.toLowerCase() === lower);
}
export const getAttr = (obj: Json, name: string): unknown => {
  const k = keyOf(obj, name);
  return k === undefined ? undefined : obj[k];
};
function setAttr(obj: Json, name: string, value: unknown) {
  const k = keyOf(obj, name);
  if (k !== undefined && k !== name) delete obj[k];
  obj[name] = value;
}
function deleteAttr(obj: Json, name: string) {
  const k = keyOf(obj, name);
  if (k !== undefined) delete obj[k];
}

// Filters -------------------------------------------------------------------------------------------

/** A filter's text parsed, or 400 invalidFilter. */
export function parseFilter(text: string): Filter {
  try {
    return parse(text);
  } catch {
    throw new ScimError(400, `The filter is not valid SCIM filter syntax: ${text.slice(0, 200)}`, 'invalidFilter');
  }
}

/** `attr eq "value"` as the lookups need it, or undefined for any other filter. */
export function equalityOf(f: Filter): { attr: string; value: string } | undefined {
  if (f.op !== 'eq' || !('compValue' in f) || typeof f.compValue !== 'string') return undefined;
  const attr = f.attrPath.replace(/^urn:ietf:params:scim:schemas:core:2\.0:(User|Group):/i, '');
  return { attr: attr.toLowerCase(), value: f.compValue };
}

const text = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);

/**
 * Whether an element of a multi-valued attribute matches a value filter (`type eq "work"`).
 * Strings compare ignoring case: Entra sends "work", Okta "Work" (the sub-attributes of emails,
 * phoneNumbers and addresses are caseExact false).
 */
export function matches(f: Filter, el: unknown): boolean {
  if (!isObject(el)) return false;
  switch (f.op) {
    case 'and':
      return (f as { filters: Filter[] }).filters.every((g) => matches(g, el));
    case 'or':
      return (f as { filters: Filter[] }).filters.some((g) => matches(g, el));
    case 'not':
      return !matches((f as { filter: Filter }).filter, el);
    case 'pr': {
      const v = getAttr(el, (f as { attrPath: string }).attrPath);
      return v !== undefined && v !== null && v !== '';
    }
    case '[]':
      return false;
    default: {
      const { attrPath, compValue } = f as { attrPath: string; compValue: unknown };
      const v = text(getAttr(el, attrPath));
      const c = text(compValue);
      switch (f.op) {
        case 'eq':
          return v === c;
        case 'ne':
          return v !== c;
        case 'co':
          return typeof v === 'string' && typeof c === 'string' && v.includes(c);
        case 'sw':
          return typeof v === 'string' && typeof c === 'string' && v.startsWith(c);
        case 'ew':
          return typeof v === 'string' && typeof c === 'string' && v.endsWith(c);
        default:
          return false;
      }
    }
  }
}

// Paths -----------------------------------------------------------------------------------------------

/** A PATCH path: the attribute (in the extension's object when `schema` is set), a value filter, a sub-attribute. */
export type ScimPath = { schema?: string; attr: string; filter?: Filter; sub?: string };

const NAME = '[A-Za-z$][\\w$-]*';
const PATH = new RegExp(`^(${NAME})(?:\\[(.+)\\])?(?:\\.(${NAME}))?$`);

/**
 * `emails[type eq "work"].value`, `name.givenName`, `members[value eq "…"]`,
 * `urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department`. The core schema's URN
 * in front is dropped; an extension's becomes `schema`.
 */
export function parsePath(path: string, extensions: readonly string[] = [SCHEMA.enterprise]): ScimPath {
  let rest = path.trim();
  let schema: string | undefined;
  const lower = rest.toLowerCase();
  for (const core of [SCHEMA.user, SCHEMA.group]) {
    if (lower.startsWith(`${core.toLowerCase()}:`)) rest = rest.slice(core.length + 1);
  }
  for (const ext of extensions) {
    if (lower.startsWith(`${ext.toLowerCase()}:`)) {
      schema = ext;
      rest = rest.slice(ext.length + 1);
    }
  }
  const m = PATH.exec(rest);
  if (!m) throw invalidPath(`The path "${path.slice(0, 200)}" is not a SCIM attribute path`);
  const [, attr, filterText, sub] = m;
  let filter: Filter | undefined;
  if (filterText !== undefined) {
    try {
      filter = parse(filterText);
    } catch {
      throw invalidPath(`The value filter in "${path.slice(0, 200)}" is not valid`);
    }
  }
  return { ...(schema ? { schema } : {}), attr: attr!, ...(filter ? { filter } : {}), ...(sub ? { sub } : {}) };
}

// PATCH -----------------------------------------------------------------------------------------------

export type PatchOperation = { op: 'add' | 'replace' | 'remove'; path?: string; value?: unknown };

/**
 * The body's operations, with the op in lower case (Entra sends "Replace", "Add", "Remove").
 * 400 invalidSyntax for anything that is not a PatchOp message.
 */
export function readPatch(body: unknown): PatchOperation[] {
  if (!isObject(body)) throw invalidSyntax('The body must be a SCIM PatchOp message');
  const operations = getAttr(body, 'Operations');
  if (!Array.isArray(operations) || operations.length === 0) {
    throw invalidSyntax('The PatchOp message must have a non-empty "Operations" array');
  }
  return operations.map((raw, i) => {
    if (!isObject(raw)) throw invalidSyntax(`Operation ${i + 1} is not an object`);
    const op = getAttr(raw, 'op');
    const kind = typeof op === 'string' ? op.toLowerCase() : '';
    if (kind !== 'add' && kind !== 'replace' && kind !== 'remove') {
      throw invalidSyntax(`Operation ${i + 1}: "op" must be add, replace or remove`);
    }
    const path = getAttr(raw, 'path');
    if (path !== undefined && typeof path !== 'string')
      throw invalidPath(`Operation ${i + 1}: "path" must be a string`);
    const value = getAttr(raw, 'value');
    if (kind !== 'remove' && value === undefined) throw invalidValue(`Operation ${i + 1}: "${kind}" needs a value`);
    if (kind === 'remove' && !path) throw new ScimError(400, `Operation ${i + 1}: "remove" needs a path`, 'noTarget');
    return { op: kind, ...(path ? { path } : {}), ...(value !== undefined ? { value } : {}) };
  });
}

/** "True"/"False" (Entra's booleans) and real booleans; anything else is left for the reader to refuse. */
export function booleanOf(value: unknown): unknown {
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  return value;
}

function mergeInto(target: Json, value: Json) {
  for (const [k, v] of Object.entries(value)) {
    const existing = getAttr(target, k);
    if (isObject(existing) && isObject(v)) mergeInto(existing, v);
    else setAttr(target, k, v);
  }
}

/** A new element of a multi-valued attribute implied by an `eq` filter: `type eq "work"` gives `{type: "work"}`. */
function elementOf(filter: Filter): Json {
  const el: Json = {};
  const add = (f: Filter) => {
    if (f.op === 'eq' && 'compValue' in f) el[f.attrPath] = f.compValue;
    if (f.op === 'and') (f as { filters: Filter[] }).filters.forEach(add);
  };
  add(filter);
  return el;
}

/**
 * Applies one operation to a resource's JSON (in place). A value object without a path sets each
 * of its keys, which may themselves be paths ("name.givenName", the enterprise URN's attributes).
 * A filtered path with no matching element adds one (Entra replaces `emails[type eq "work"].value`
 * of a user who has no work email yet).
 */
export function applyOperation(resource: Json, op: PatchOperation): void {
  if (!op.path) {
    if (!isObject(op.value)) throw invalidValue('An operation without a path needs an object value');
    for (const [k, v] of Object.entries(op.value)) {
      if (k.includes('.') || k.includes(':') || k.includes('['))
        applyOperation(resource, { op: op.op, path: k, value: v });
      else if (op.op === 'add' && isObject(v) && isObject(getAttr(resource, k)))
        mergeInto(getAttr(resource, k) as Json, v);
      else if (op.op === 'add' && Array.isArray(v) && Array.isArray(getAttr(resource, k)))
        setAttr(resource, k, [...(getAttr(resource, k) as unknown[]), ...v]);
      else setAttr(resource, k, v);
    }
    return;
  }
  const path = parsePath(op.path);
  let container: Json = resource;
  if (path.schema) {
    let ext = getAttr(resource, path.schema);
    if (!isObject(ext)) {
      if (op.op === 'remove') return;
      ext = {};
      setAttr(resource, path.schema, ext);
    }
    container = ext as Json;
  }
  if (!path.filter) {
    if (path.sub) {
      let parent = getAttr(container, path.attr);
      if (!isObject(parent)) {
        if (op.op === 'remove') return;
        parent = {};
        setAttr(container, path.attr, parent);
      }
      if (op.op === 'remove') deleteAttr(parent as Json, path.sub);
      else setAttr(parent as Json, path.sub, op.value);
      return;
    }
    const current = getAttr(container, path.attr);
    if (op.op === 'remove') {
      if (Array.isArray(current) && Array.isArray(op.value)) {
        const gone = new Set(op.value.map((v) => (isObject(v) ? String(getAttr(v, 'value')) : String(v))));
        setAttr(
          container,
          path.attr,
          current.filter((el) => !gone.has(String(isObject(el) ? getAttr(el, 'value') : el))),
        );
      } else deleteAttr(container, path.attr);
      return;
    }
    if (op.op === 'add' && Array.isArray(current)) {
      setAttr(container, path.attr, [...current, ...(Array.isArray(op.value) ? op.value : [op.value])]);
    } else if (op.op === 'add' && isObject(current) && isObject(op.value)) {
      mergeInto(current, op.value);
    } else setAttr(container, path.attr, op.value);
    return;
  }
  const list = getAttr(container, path.attr);
  const elements = Array.isArray(list) ? [...(list as unknown[])] : [];
  const hits = elements.filter((el) => matches(path.filter!, el));
  if (op.op === 'remove') {
    if (path.sub) hits.forEach((el) => deleteAttr(el as Json, path.sub!));
    setAttr(container, path.attr, path.sub ? elements : elements.filter((el) => !hits.includes(el)));
    return;
  }
  if (hits.length === 0) {
    const el = elementOf(path.filter);
    if (path.sub) el[path.sub] = op.value;
    else if (isObject(op.value)) Object.assign(el, op.value);
    elements.push(el);
  } else {
    for (const el of hits) {
      if (path.sub) setAttr(el as Json, path.sub, op.value);
      else if (isObject(op.value)) mergeInto(el as Json, op.value);
    }
  }
  setAttr(container, path.attr, elements);
}

/** Paging (RFC 7644 §3.4.2.4): startIndex is 1-based (below 1 means 1), count at most `max` (below 0 means 0). */
export function pagingOf(query: { startIndex?: string; count?: string }, max: number) {
  const start = Number.parseInt(query.startIndex ?? '1', 10);
  const wanted = Number.parseInt(query.count ?? String(max > 100 ? 100 : max), 10);
  const startIndex = Number.isFinite(start) && start >= 1 ? start : 1;
  const count = Number.isFinite(wanted) ? Math.min(Math.max(wanted, 0), max) : Math.min(100, max);
  return { startIndex, count, offset: startIndex - 1 };
}

export const listResponse = (resources: unknown[], total: number, startIndex: number) => ({
  schemas: [SCHEMA.list],
  totalResults: total,
  startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});
