import { resolveLanguage, type AuditAction } from '../../../contract';
import type { Deps } from '../../context';
import type { DbOrTx } from '../../db/client';
import { violatedUniqueConstraint } from '../../lib/pg-errors';
import { auditRepository } from '../audit/audit.repository';
import { directoryRecipients } from '../recipients/recipients.service';
import type { RecipientChanges } from '../recipients/recipients.repository';
import {
  SCIM_EXTERNAL_ID_INDEX,
  SCIM_GROUP_EXTERNAL_ID_INDEX,
  SCIM_GROUP_NAME_INDEX,
  SCIM_USER_NAME_INDEX,
  scimRepository,
  type RecipientRow,
  type ScimGroupRow,
} from './scim.repository';
import {
  SCHEMA,
  ScimError,
  applyOperation,
  equalityOf,
  getAttr,
  invalidValue,
  listResponse,
  pagingOf,
  parseFilter,
  parsePath,
  readPatch,
} from './scim.protocol';
import { readUser, toScimUser, type ScimUserFields } from './scim.users';
import type { ScimCaller } from './scim-tokens.service';

/** The most resources one list answers (ServiceProviderConfig's filter.maxResults). */
export const SCIM_MAX_RESULTS = 1000;

export const USER_NOT_FOUND = (id: string) => `User ${id.slice(0, 64)} not found`;
export const GROUP_NOT_FOUND = (id: string) => `Group ${id.slice(0, 64)} not found`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ListQuery = { filter?: string; startIndex?: string; count?: string; excludedAttributes?: string };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The recipient columns SCIM writes, compared to tell what a request changed. */
const USER_COLUMNS = [
  'scimUserName',
  'externalId',
  'firstName',
  'lastName',
  'email',
  'phone',
  'unit',
  'department',
  'preferredLanguage',
  'isActive',
] as const;

function uniquenessOf(err: unknown): ScimError | undefined {
  const index = violatedUniqueConstraint(err);
  if (index === SCIM_USER_NAME_INDEX)
    return new ScimError(409, 'A user with this userName already exists', 'uniqueness');
  if (index === SCIM_EXTERNAL_ID_INDEX)
    return new ScimError(409, 'A user with this externalId already exists', 'uniqueness');
  if (index === SCIM_GROUP_NAME_INDEX)
    return new ScimError(409, 'A group with this displayName already exists', 'uniqueness');
  if (index === SCIM_GROUP_EXTERNAL_ID_INDEX)
    return new ScimError(409, 'A group with this externalId already exists', 'uniqueness');
  return undefined;
}

export function createScimService({ db, publicUrl }: Deps) {
  const baseUrl = () => `${publicUrl()}/scim/v2`;

  /** A write and its one audit entry in one transaction; a broken unique index is SCIM's uniqueness 409. */
  async function writing<T>(work: (tx: DbOrTx) => Promise<T>): Promise<T> {
    try {
      return await db.transaction(work);
    } catch (err) {
      throw uniquenessOf(err) ?? err;
    }
  }

  /**
   * The one audit entry of a change. Entries about a recipient name them by id only, with the
   * names of the fields that changed, never their values (decision 015).
   */
  const audit = (
    tx: DbOrTx,
    caller: ScimCaller,
    action: AuditAction,
    target: { type: 'recipient' | 'scim_group'; id: string; label?: string },
    after: Json,
  ) =>
    auditRepository.record(tx, {
      organizationId: caller.organizationId,
      actorId: null,
      action,
      targetType: target.type,
      targetId: target.id,
      targetLabel: target.label ?? null,
      after: { ...after, via: 'scim', token: caller.tokenName },
    });

  async function userJson(row: RecipientRow, tx: DbOrTx = db) {
    return toScimUser(row, baseUrl(), await scimRepository.groupsOfUser(tx, row.organizationId, row.id));
  }

  async function requireUser(tx: DbOrTx, caller: ScimCaller, id: string, forUpdate = false) {
    // Another organization's id, a deleted user's or no user at all: the same 404.
    const row = UUID.test(id) ? await scimRepository.findUser(tx, caller.organizationId, id, { forUpdate }) : undefined;
    if (!row || row.scimUserName === null) throw new ScimError(404, USER_NOT_FOUND(id));
    return row;
  }

  /**
   * Writes `fields` over the user and records the one entry the change deserves: a deactivation
   * (left_at set, their page's sessions ended by the recipients' own path), a reactivation, or an
   * update naming the changed fields. Nothing changed: nothing written, nothing recorded.
   */
  async function applyUser(tx: DbOrTx, caller: ScimCaller, row: RecipientRow, fields: ScimUserFields) {
    const next: RecipientChanges = {
      ...fields,
      ...(await departmentOf(tx, caller, row, fields.department)),
      isActive: fields.isActive ?? row.isActive,
    };
    // The directory's language, resolved, in the same write (decision 066), when the directory
    // changes it: a language the person or the desk chose since stays until the directory says
    // something new; a tag we cannot speak leaves it as it is.
    const language = resolveLanguage(fields.preferredLanguage);
    if ((row.preferredLanguage ?? null) !== (fields.preferredLanguage ?? null) && language) next.language = language;
    const changed = USER_COLUMNS.filter((c) => (row[c] ?? null) !== (next[c] ?? null));
    if (changed.length === 0) {
      // The same department, now the user's own rather than the group's: only the mark changes.
      if ((row.departmentGroupId ?? null) === (next.departmentGroupId ?? null)) return row;
      const marked = await directoryRecipients.update(tx, caller.organizationId, row.id, {
        departmentGroupId: next.departmentGroupId ?? null,
      });
      return marked!;
    }
    const { organizationId } = caller;
    let action: AuditAction = 'scim.user_updated';
    if (next.isActive === false && row.isActive) {
      // The recipients' own deactivation path: their page's sessions end with the same statement.
      action = 'scim.user_deactivated';
      next.leftAt = row.leftAt ?? new Date();
    } else if (next.isActive === true && !row.isActive) {
      action = 'scim.user_reactivated';
      next.leftAt = null;
    }
    const updated = await directoryRecipients.update(tx, organizationId, row.id, next);
    await audit(tx, caller, action, { type: 'recipient', id: row.id }, { fields: changed });
    return updated!;
  }

  /**
   * A user's department (decision 060): their own, the enterprise extension's, wins; without one,
   * the group's that gave them theirs, or else the first by name of the department groups they
   * are in, else none.
   */
  async function departmentOf(tx: DbOrTx, caller: ScimCaller, row: RecipientRow, own: string | null) {
    if (own !== null) return { department: own, departmentGroupId: null };
    if (row.departmentGroupId) return { department: row.department, departmentGroupId: row.departmentGroupId };
    const group = await scimRepository.departmentGroupOf(tx, caller.organizationId, row.id);
    return { department: group?.displayName ?? null, departmentGroupId: group?.id ?? null };
  }

  /** One recipient's department as a group sets it, through the recipients' writer, audited as a user update. */
  async function setDepartment(
    tx: DbOrTx,
    caller: ScimCaller,
    row: RecipientRow,
    next: { department: string | null; departmentGroupId: string | null },
    via: ScimGroupRow,
  ) {
    if (row.department === next.department && row.departmentGroupId === next.departmentGroupId) return;
    await directoryRecipients.update(tx, caller.organizationId, row.id, next);
    if (row.department !== next.department) {
      await audit(
        tx,
        caller,
        'scim.user_updated',
        { type: 'recipient', id: row.id },
        {
          fields: ['department'],
          group: via.id,
        },
      );
    }
  }

  /** Members joining a department group take its name, unless they already have a department (their own wins). */
  async function joinDepartment(tx: DbOrTx, caller: ScimCaller, group: ScimGroupRow, ids: string[]) {
    if (group.kind !== 'department') return;
    for (const row of await scimRepository.usersByIds(tx, caller.organizationId, ids)) {
      if (row.department === null)
        await setDepartment(tx, caller, row, { department: group.displayName, departmentGroupId: group.id }, group);
    }
  }

  /**
   * The recipients whose department this group set (of `ids`, or all) after they left it, or it
   * was renamed or deleted: its new name, or their next department group's, or none.
   */
  async function refreshDepartment(
    tx: DbOrTx,
    caller: ScimCaller,
    group: ScimGroupRow,
    ids?: string[],
    options: { leaving?: boolean } = {},
  ) {
    if (group.kind !== 'department') return;
    for (const row of await scimRepository.departmentSetBy(tx, caller.organizationId, group.id, ids)) {
      const next = options.leaving
        ? await scimRepository.departmentGroupOf(tx, caller.organizationId, row.id, group.id)
        : { id: group.id, displayName: group.displayName };
      await setDepartment(
        tx,
        caller,
        row,
        { department: next?.displayName ?? null, departmentGroupId: next?.id ?? null },
        group,
      );
    }
  }

  async function groupJson(row: ScimGroupRow, members?: string[]) {
    return {
      schemas: [SCHEMA.group, SCHEMA.groupKind],
      id: row.id,
      ...(row.externalId ? { externalId: row.externalId } : {}),
      displayName: row.displayName,
      [SCHEMA.groupKind]: { kind: row.kind },
      ...(members ? { members: members.map((value) => ({ value, $ref: `${baseUrl()}/Users/${value}` })) } : {}),
      meta: {
        resourceType: 'Group',
        created: row.createdAt.toISOString(),
        lastModified: row.updatedAt.toISOString(),
        location: `${baseUrl()}/Groups/${row.id}`,
      },
    };
  }

  async function requireGroup(tx: DbOrTx, caller: ScimCaller, id: string, forUpdate = false) {
    const row = UUID.test(id)
      ? await scimRepository.findGroup(tx, caller.organizationId, id, { forUpdate })
      : undefined;
    if (!row) throw new ScimError(404, GROUP_NOT_FOUND(id));
    return row;
  }

  /** Group fields from a resource: displayName required; `kind` from Pigeonhole's own extension, else department. */
  function readGroup(resource: unknown) {
    if (!isObject(resource)) throw invalidValue('The body must be a SCIM Group resource');
    const displayName = getAttr(resource, 'displayName');
    if (typeof displayName !== 'string' || displayName.trim() === '') throw invalidValue('displayName is required');
    if (displayName.length > 255) throw invalidValue('displayName has at most 255 characters');
    const externalId = getAttr(resource, 'externalId');
    if (
      externalId !== undefined &&
      externalId !== null &&
      (typeof externalId !== 'string' || externalId.length > 255)
    ) {
      throw invalidValue('externalId must be a string of at most 255 characters');
    }
    const members = getAttr(resource, 'members');
    if (members !== undefined && !Array.isArray(members)) throw invalidValue('members must be an array');
    const extension = getAttr(resource, SCHEMA.groupKind);
    const kind = isObject(extension) ? getAttr(extension, 'kind') : undefined;
    if (kind !== undefined && kind !== 'department' && kind !== 'household') {
      throw invalidValue('kind is department or household');
    }
    return {
      kind: kind as 'department' | 'household' | undefined,
      displayName: displayName.trim(),
      externalId: (externalId as string | undefined)?.trim() || null,
      members: members === undefined ? undefined : memberIdsOf(members),
    };
  }

  function memberIdsOf(value: unknown): string[] {
    const list = Array.isArray(value) ? value : [value];
    return [
      ...new Set(
        list.map((m) => {
          const id = isObject(m) ? getAttr(m, 'value') : m;
          if (typeof id !== 'string') throw invalidValue('Each member needs a "value": the id of a User');
          return id;
        }),
      ),
    ];
  }

  /** Members must be this organization's users: another organization's id, or none at all, is 404 (noTarget). */
  async function requireMembers(tx: DbOrTx, caller: ScimCaller, ids: string[]) {
    const valid = ids.filter((id) => UUID.test(id));
    const known = await scimRepository.existingUserIds(tx, caller.organizationId, valid);
    const unknown = ids.find((id) => !known.has(id));
    if (unknown !== undefined)
      throw new ScimError(404, `Member ${unknown.slice(0, 64)} is not a User of this directory`, 'noTarget');
  }

  return {
    // Users ---------------------------------------------------------------------------------------

    /**
     * Lists users, or finds them: `userName eq`, `externalId eq` (and `id eq`) are answered by an
     * index lookup, never a scan; any other filter is 400 invalidFilter.
     */
    async listUsers(caller: ScimCaller, query: ListQuery) {
      const { startIndex, count, offset } = pagingOf(query, SCIM_MAX_RESULTS);
      if (query.filter !== undefined) {
        const eq = equalityOf(parseFilter(query.filter));
        let row: RecipientRow | undefined;
        if (eq?.attr === 'username') row = await scimRepository.findUserByUserName(db, caller.organizationId, eq.value);
        else if (eq?.attr === 'externalid')
          row = await scimRepository.findUserByExternalId(db, caller.organizationId, eq.value);
        else if (eq?.attr === 'id')
          row = UUID.test(eq.value) ? await scimRepository.findUser(db, caller.organizationId, eq.value) : undefined;
        else
          throw new ScimError(
            400,
            'Users can be filtered by userName eq, externalId eq or id eq only',
            'invalidFilter',
          );
        const rows = row && row.scimUserName !== null && row.managedBy === 'scim' ? [row] : [];
        const page = rows.slice(offset, offset + count);
        return listResponse(await Promise.all(page.map((r) => userJson(r))), rows.length, startIndex);
      }
      const { rows, total } = await scimRepository.listUsers(db, caller.organizationId, offset, count);
      return listResponse(await Promise.all(rows.map((r) => userJson(r))), total, startIndex);
    },

    async getUser(caller: ScimCaller, id: string) {
      return userJson(await requireUser(db, caller, id));
    },

    /**
     * Creates the user as a recipient. A recipient typed or imported by hand with the same email is
     * taken over instead (no duplicate at the desk): from now on the directory keeps it.
     */
    async createUser(caller: ScimCaller, body: unknown) {
      const fields = readUser(body);
      const { organizationId } = caller;
      return writing(async (tx) => {
        if (await scimRepository.findUserByUserName(tx, organizationId, fields.scimUserName)) {
          throw new ScimError(409, 'A user with this userName already exists', 'uniqueness');
        }
        if (fields.externalId && (await scimRepository.findUserByExternalId(tx, organizationId, fields.externalId))) {
          throw new ScimError(409, 'A user with this externalId already exists', 'uniqueness');
        }
        const values = {
          ...fields,
          isActive: fields.isActive ?? true,
          managedBy: 'scim' as const,
          // preferredLanguage resolved to a language we write in (decision 066), in the same write.
          ...(resolveLanguage(fields.preferredLanguage) ? { language: resolveLanguage(fields.preferredLanguage) } : {}),
        };
        const existing = fields.email
          ? await scimRepository.findUnmanagedByEmail(tx, organizationId, fields.email, { forUpdate: true })
          : undefined;
        if (existing) {
          await directoryRecipients.update(tx, organizationId, existing.id, {
            ...values,
            leftAt: values.isActive ? null : (existing.leftAt ?? new Date()),
          });
          await audit(
            tx,
            caller,
            'scim.user_adopted',
            { type: 'recipient', id: existing.id },
            {
              fields: USER_COLUMNS.filter((c) => (existing[c] ?? null) !== (values[c] ?? null)),
            },
          );
          return userJson((await scimRepository.findUser(tx, organizationId, existing.id))!, tx);
        }
        const row = await directoryRecipients.create(tx, organizationId, {
          ...values,
          recipientType: 'employee',
          leftAt: values.isActive ? null : new Date(),
        });
        await audit(tx, caller, 'scim.user_created', { type: 'recipient', id: row.id }, { fields: [...USER_COLUMNS] });
        return userJson(row, tx);
      });
    },

    /** PUT: the resource replaces the user's SCIM attributes (those it leaves out are cleared; `active` left out is kept). */
    async replaceUser(caller: ScimCaller, id: string, body: unknown) {
      const fields = readUser(body);
      return writing(async (tx) =>
        userJson(await applyUser(tx, caller, await requireUser(tx, caller, id, true), fields), tx),
      );
    },

    /**
     * PATCH: the operations are applied to the user's SCIM JSON as it is, then read back like a
     * PUT, so every form Entra ID and Okta send (paths with value filters, value objects without a
     * path, "True"/"False") ends in the same fields and the same checks.
     */
    async patchUser(caller: ScimCaller, id: string, body: unknown) {
      const operations = readPatch(body);
      return writing(async (tx) => {
        const row = await requireUser(tx, caller, id, true);
        const resource = toScimUser(row, baseUrl()) as unknown as Json;
        for (const op of operations) applyOperation(resource, op);
        const fields = readUser(resource);
        return userJson(await applyUser(tx, caller, row, fields), tx);
      });
    },

    /**
     * DELETE deactivates, never erases: the recipient stays, left, with their waiting items. The
     * userName and externalId are released (the provider may create the person again), their groups
     * left, and the user answers 404 from now on.
     */
    async deleteUser(caller: ScimCaller, id: string) {
      await writing(async (tx) => {
        const row = await requireUser(tx, caller, id, true);
        await directoryRecipients.update(tx, caller.organizationId, row.id, { scimUserName: null, externalId: null });
        if (row.isActive || !row.leftAt) await directoryRecipients.deactivate(tx, caller.organizationId, row);
        await audit(tx, caller, 'scim.user_deactivated', { type: 'recipient', id: row.id }, { deleted: true });
      });
    },

    // Groups --------------------------------------------------------------------------------------

    /** `displayName eq`, `externalId eq` (and `id eq`) by index; `excludedAttributes=members` as Entra asks. */
    async listGroups(caller: ScimCaller, query: ListQuery) {
      const { startIndex, count, offset } = pagingOf(query, SCIM_MAX_RESULTS);
      const withMembers = !/(^|,)\s*members\s*(,|$)/i.test(query.excludedAttributes ?? '');
      let rows: ScimGroupRow[];
      let total: number;
      if (query.filter !== undefined) {
        const eq = equalityOf(parseFilter(query.filter));
        let row: ScimGroupRow | undefined;
        if (eq?.attr === 'displayname')
          row = await scimRepository.findGroupByDisplayName(db, caller.organizationId, eq.value);
        else if (eq?.attr === 'externalid')
          row = await scimRepository.findGroupByExternalId(db, caller.organizationId, eq.value);
        else if (eq?.attr === 'id')
          row = UUID.test(eq.value) ? await scimRepository.findGroup(db, caller.organizationId, eq.value) : undefined;
        else
          throw new ScimError(
            400,
            'Groups can be filtered by displayName eq, externalId eq or id eq only',
            'invalidFilter',
          );
        total = row ? 1 : 0;
        rows = row ? [row].slice(offset, offset + count) : [];
      } else {
        ({ rows, total } = await scimRepository.listGroups(db, caller.organizationId, offset, count));
      }
      const members = withMembers
        ? await scimRepository.membersOf(
            db,
            caller.organizationId,
            rows.map((r) => r.id),
          )
        : undefined;
      return listResponse(
        await Promise.all(rows.map((r) => groupJson(r, members ? (members.get(r.id) ?? []) : undefined))),
        total,
        startIndex,
      );
    },

    async getGroup(caller: ScimCaller, id: string, query: ListQuery = {}) {
      const row = await requireGroup(db, caller, id);
      const withMembers = !/(^|,)\s*members\s*(,|$)/i.test(query.excludedAttributes ?? '');
      const members = withMembers
        ? ((await scimRepository.membersOf(db, caller.organizationId, [id])).get(id) ?? [])
        : undefined;
      return groupJson(row, members);
    },

    async createGroup(caller: ScimCaller, body: unknown) {
      const group = readGroup(body);
      return writing(async (tx) => {
        if (await scimRepository.findGroupByDisplayName(tx, caller.organizationId, group.displayName)) {
          throw new ScimError(409, 'A group with this displayName already exists', 'uniqueness');
        }
        const members = group.members ?? [];
        await requireMembers(tx, caller, members);
        const row = await scimRepository.insertGroup(tx, caller.organizationId, {
          displayName: group.displayName,
          externalId: group.externalId,
          kind: group.kind ?? 'department',
        });
        await scimRepository.addMembers(tx, caller.organizationId, row.id, members);
        await joinDepartment(tx, caller, row, members);
        await audit(
          tx,
          caller,
          'scim.group_created',
          { type: 'scim_group', id: row.id, label: row.displayName },
          {
            members: members.length,
            kind: row.kind,
          },
        );
        return groupJson(row, members);
      });
    },

    /** PUT: name and external id replaced; members replaced when sent. */
    async replaceGroup(caller: ScimCaller, id: string, body: unknown) {
      const group = readGroup(body);
      return writing(async (tx) => {
        const row = await requireGroup(tx, caller, id, true);
        const changes: Json = {};
        const updated = await scimRepository.updateGroup(tx, caller.organizationId, id, {
          displayName: group.displayName,
          externalId: group.externalId,
        });
        if (updated!.displayName !== row.displayName) changes.displayName = true;
        if (updated!.externalId !== row.externalId) changes.externalId = true;
        if (changes.displayName) await refreshDepartment(tx, caller, updated!);
        if (group.members) {
          await requireMembers(tx, caller, group.members);
          const before = (await scimRepository.membersOf(tx, caller.organizationId, [id])).get(id) ?? [];
          const removed = before.filter((m) => !group.members!.includes(m));
          await scimRepository.removeMembers(tx, caller.organizationId, id, removed);
          await refreshDepartment(tx, caller, updated!, removed, { leaving: true });
          const added = await scimRepository.addMembers(tx, caller.organizationId, id, group.members);
          await joinDepartment(tx, caller, updated!, added);
          if (added.length) changes.membersAdded = added.length;
          if (removed.length) changes.membersRemoved = removed.length;
        }
        if (Object.keys(changes).length) {
          await audit(
            tx,
            caller,
            'scim.group_updated',
            { type: 'scim_group', id, label: updated!.displayName },
            { ...changes, kind: updated!.kind },
          );
        }
        const members = (await scimRepository.membersOf(tx, caller.organizationId, [id])).get(id) ?? [];
        return groupJson(updated!, members);
      });
    },

    /**
     * PATCH of a group: `members` add and remove (with a value list, or Okta's
     * `members[value eq "…"]`), replace of the members, displayName and externalId. Memberships are
     * written one by one, never by reading the whole group: Entra sends large groups in batches.
     * Answers the group without its members (Entra and Okta read nothing more of the answer).
     */
    async patchGroup(caller: ScimCaller, id: string, body: unknown) {
      const operations = readPatch(body);
      return writing(async (tx) => {
        const row = await requireGroup(tx, caller, id, true);
        const { organizationId } = caller;
        let added = 0;
        let removed = 0;
        const fields: Json = { displayName: row.displayName, externalId: row.externalId };
        const memberOps: Array<{ op: string; ids?: string[] }> = [];
        for (const op of operations) {
          const entries: Array<[string | undefined, unknown]> = op.path
            ? [[op.path, op.value]]
            : isObject(op.value)
              ? Object.entries(op.value)
              : (() => {
                  throw invalidValue('An operation without a path needs an object value');
                })();
          for (const [pathText, value] of entries) {
            const path = parsePath(pathText ?? '', []);
            const attr = path.attr.toLowerCase();
            if (attr === 'members') {
              if (op.op === 'remove') {
                const filtered =
                  path.filter && 'compValue' in path.filter ? [String(path.filter.compValue)] : undefined;
                memberOps.push({
                  op: 'remove',
                  ids: filtered ?? (value === undefined ? undefined : memberIdsOf(value)),
                });
              } else memberOps.push({ op: op.op, ids: memberIdsOf(value) });
            } else if (attr === 'displayname' || attr === 'externalid') {
              if (op.op === 'remove') {
                if (attr === 'displayname') throw new ScimError(400, 'displayName cannot be removed', 'mutability');
                fields.externalId = null;
              } else if (attr === 'displayname') fields.displayName = value;
              else fields.externalId = value;
            } else if (attr === 'id' || attr === 'schemas' || attr === 'meta') {
              // Okta echoes the id in its value objects: unchanged, ignored.
            } else throw new ScimError(400, `Groups have no attribute "${path.attr}" to change`, 'invalidPath');
          }
        }
        const checked = readGroup({ displayName: fields.displayName, externalId: fields.externalId });
        const changes: Json = {};
        let updated = row;
        if (checked.displayName !== row.displayName || checked.externalId !== row.externalId) {
          updated = (await scimRepository.updateGroup(tx, organizationId, id, {
            displayName: checked.displayName,
            externalId: checked.externalId,
          }))!;
          if (checked.displayName !== row.displayName) changes.displayName = true;
          if (checked.externalId !== row.externalId) changes.externalId = true;
          if (changes.displayName) await refreshDepartment(tx, caller, updated);
        }
        const leave = async (ids?: string[]) => {
          const gone = await scimRepository.removeMembers(tx, organizationId, id, ids);
          await refreshDepartment(tx, caller, updated, gone, { leaving: true });
          return gone.length;
        };
        for (const m of memberOps) {
          if (m.op === 'remove') removed += await leave(m.ids);
          else {
            await requireMembers(tx, caller, m.ids!);
            if (m.op === 'replace') removed += await leave();
            const joined = await scimRepository.addMembers(tx, organizationId, id, m.ids!);
            await joinDepartment(tx, caller, updated, joined);
            added += joined.length;
          }
        }
        if (added) changes.membersAdded = added;
        if (removed) changes.membersRemoved = removed;
        if (Object.keys(changes).length) {
          await audit(
            tx,
            caller,
            'scim.group_updated',
            { type: 'scim_group', id, label: updated.displayName },
            { ...changes, kind: updated.kind },
          );
        }
        return groupJson(updated);
      });
    },

    async deleteGroup(caller: ScimCaller, id: string) {
      await writing(async (tx) => {
        const group = await requireGroup(tx, caller, id, true);
        // Those whose department it set take their next department group's name, or none.
        await refreshDepartment(tx, caller, group, undefined, { leaving: true });
        const row = await scimRepository.deleteGroup(tx, caller.organizationId, id);
        await audit(tx, caller, 'scim.group_deleted', { type: 'scim_group', id, label: row!.displayName }, {});
      });
    },
  };
}

export type ScimService = ReturnType<typeof createScimService>;
