/**
 * bench:scale-out's load as a wrk script (`--load-generator wrk`): the same mix, organizations,
 * sessions and status changes as the autocannon module in scale-out.ts (writeLoadModule), in Lua.
 * Each of wrk's threads has a Lua state of its own: `setup` numbers them (`share`), and each takes
 * every other item of the status pools, so no two requests race for one item.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ORGANIZATION_HEADER } from '../../src/contract';
import type { DeskOrganization } from './scale-out-seed';
import { WRK_DONE_LUA, WRK_THREADS } from './wrk';

/** A Lua literal of plain data (strings are ids and URL-encoded searches: ASCII, JSON's escapes suffice). */
function lua(value: unknown): string {
  if (Array.isArray(value)) return `{${value.map(lua).join(',')}}`;
  if (typeof value === 'string') {
    if (!/^[\x20-\x7e]*$/.test(value)) throw new Error(`not plain ASCII for Lua: ${value}`);
    return JSON.stringify(value);
  }
  if (typeof value === 'number') return String(value);
  if (value && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}=${lua(v)}`)
      .join(',')}}`;
  }
  throw new Error(`no Lua literal for ${String(value)}`);
}

export async function writeWrkScript(
  dir: string,
  file: string,
  {
    organizations,
    statuses,
    cookies,
    mix,
    tag,
  }: {
    organizations: DeskOrganization[];
    statuses: Map<string, string>;
    cookies: string[];
    mix: string[];
    /** Makes this run's tracking numbers its own. */
    tag: string;
  },
): Promise<string> {
  const orgs = organizations.map((o) => ({
    id: o.id,
    r: o.recipientIds,
    s: o.searches.map(encodeURIComponent),
    l: o.locationIds,
    p: o.statusPool,
    now: o.statusPool.map((id) => statuses.get(id) ?? 'pending'),
  }));
  const target = path.join(dir, file);
  await fs.writeFile(
    target,
    `-- Written by scripts/bench/scale-out-wrk.ts for one run.
local THREADS = ${WRK_THREADS}
local SPARE = 10
local orgs = ${lua(orgs)}
local cookies = ${lua(cookies)}
local mix = ${lua(mix)}
local senders = {"Amazon", "Apple", "Zappos", "Chewy", "Best Buy", "Target", "Etsy"}

local next_share = 0
function setup(thread)
  thread:set("share", next_share)
  next_share = next_share + 1
end

function init(args)
  share = share or 0
  for _, o in ipairs(orgs) do
    o.pending, o.notified, o.changes = {}, {}, 0
    for k, id in ipairs(o.p) do
      if (k - 1) % THREADS == share then
        table.insert(o.now[k] == "notified" and o.notified or o.pending, id)
      end
    end
  end
end

local n = 0
function request()
  local i = n
  n = n + 1
  -- As the autocannon module: the organization moves on every request, shifts by one every full
  -- mix, and each thread starts its walk at another organization.
  local o = orgs[(i + math.floor(i / #mix) + share * math.floor(#orgs / THREADS)) % #orgs + 1]
  local headers = { ["cookie"] = cookies[i % #cookies + 1], ["${ORGANIZATION_HEADER}"] = o.id }
  local kind = mix[i % #mix + 1]
  if kind == "intake-list" then
    return wrk.format("GET", "/api/mail-items?limit=25&view=summary", headers)
  elseif kind == "pending" then
    return wrk.format("GET", "/api/mail-items?status=pending,notified&order=asc&limit=50&view=summary", headers)
  elseif kind == "search" then
    return wrk.format("GET", "/api/recipients?active=true&limit=20&search=" .. o.s[i % #o.s + 1], headers)
  elseif kind == "create" then
    headers["content-type"] = "application/json"
    return wrk.format("POST", "/api/mail-items", headers, string.format(
      '{"type":"package","recipientId":"%s","locationId":"%s","trackingNumber":"1Z%s%d%08d","sender":"%s"}',
      o.r[i % #o.r + 1], o.l[i % #o.l + 1], "${tag}", share, i, senders[i % #senders + 1]))
  elseif kind == "status" then
    -- Every other change the other way, while that queue has items to spare.
    local to_notified = false
    if #o.notified <= SPARE then
      to_notified = true
    elseif #o.pending > SPARE then
      to_notified = o.changes % 2 == 0
      o.changes = o.changes + 1
    end
    local from = to_notified and o.pending or o.notified
    if #from > 0 then
      local id = table.remove(from, 1)
      table.insert(to_notified and o.notified or o.pending, id)
      headers["content-type"] = "application/json"
      return wrk.format("PUT", "/api/mail-items/" .. id, headers,
        '{"status":"' .. (to_notified and "notified" or "pending") .. '"}')
    end
  end
  return wrk.format("GET", "/api/dashboard/stats", headers)
end
${WRK_DONE_LUA}`,
  );
  return target;
}
