import type { Client } from './harness';

/**
 * Every kind of write to mailrooms and storage locations (create, rename, delete of each), made by
 * `c` one after the other on the given mailroom and location; answers the responses in that order.
 * Only admins may make them.
 */
export async function everyMailroomWrite(c: Client, mailroomId: string, locationId: string) {
  return [
    await c.post('/api/mailrooms', { name: 'Mine' }),
    await c.put(`/api/mailrooms/${mailroomId}`, { name: 'Mine' }),
    await c.delete(`/api/mailrooms/${mailroomId}`),
    await c.post('/api/mailroom-locations', { name: 'Mine', type: 'bin', mailroomId }),
    await c.put(`/api/mailroom-locations/${locationId}`, { name: 'Mine' }),
    await c.delete(`/api/mailroom-locations/${locationId}`),
  ];
}
