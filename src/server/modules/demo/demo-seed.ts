import { count } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { mailItemHistory, mailItems, mailroomLocations, mailrooms, recipients, users } from '../../db/schema';
import { hashPassword } from '../../lib/passwords';
import { DAY_MS, addMs } from '../../lib/time';
import { createOrganizationFor } from '../organizations/organizations.service';
import { usersRepository } from '../auth/users.repository';

export const DEMO_LOGIN = { email: 'demo@pigeonhole.local', password: 'pigeonhole-demo' };

const RESIDENTS = [
  ['Amara', 'Okafor', '101', 'resident'],
  ['Lucas', 'Meyer', '102', 'resident'],
  ['Sofia', 'Rossi', '204', 'resident'],
  ['Hiroshi', 'Tanaka', '305', 'resident'],
  ['Priya', 'Sharma', '410', 'resident'],
  ['Daniel', 'Cohen', '512', 'resident'],
  ['Elena', 'Petrova', null, 'employee'],
  ['Marcus', 'Johnson', null, 'guest'],
] as const;

/**
 * On an empty database outside production: a demo organization someone can click through
 * straight after `npm start`. Does nothing once any user exists.
 */
export async function seedDemoIfEmpty(db: Db): Promise<typeof DEMO_LOGIN | undefined> {
  const [row] = await db.select({ n: count() }).from(users);
  if ((row?.n ?? 0) > 0) return undefined;

  const user = await usersRepository.insert(db, {
    email: DEMO_LOGIN.email,
    username: 'demo',
    firstName: 'Dana',
    lastName: 'Front-Desk',
    password: await hashPassword(DEMO_LOGIN.password),
    // A local demo address nobody can receive mail at: treated as proven.
    emailVerifiedAt: new Date(),
  });
  const org = await createOrganizationFor(db, user.id, {
    name: 'Harbor View Residences',
    address: '120 Harbor View Drive, Portland, OR 97201',
    contactName: 'Dana Front-Desk',
    contactEmail: 'frontdesk@harborview.example',
    contactPhone: '+1 503 555 0142',
    timezone: 'UTC',
  });
  const organizationId = org.id;

  await db.transaction(async (tx) => {
    const people = await tx
      .insert(recipients)
      .values(
        RESIDENTS.map(([firstName, lastName, unit, recipientType]) => ({
          organizationId,
          firstName,
          lastName,
          unit,
          recipientType,
          department: recipientType === 'employee' ? 'Building Management' : null,
          email: `${firstName.toLowerCase()}.${lastName.toLowerCase()}@example.com`,
          phone: '+1 503 555 01' + String(10 + firstName.length),
        })),
      )
      .returning({ id: recipients.id, firstName: recipients.firstName, lastName: recipients.lastName });
    const [room] = await tx
      .insert(mailrooms)
      .values({ organizationId, name: 'Lobby Mailroom', description: 'Behind the front desk, ground floor' })
      .returning({ id: mailrooms.id });
    const locations = await tx
      .insert(mailroomLocations)
      .values([
        { organizationId, mailroomId: room!.id, name: 'Shelf A', type: 'shelf' as const, capacity: 30 },
        { organizationId, mailroomId: room!.id, name: 'Shelf B', type: 'shelf' as const, capacity: 30 },
        { organizationId, mailroomId: room!.id, name: 'Bin 1', type: 'bin' as const, capacity: 20 },
        {
          organizationId,
          mailroomId: room!.id,
          name: 'Locker 1',
          type: 'locker' as const,
          capacity: 1,
          notes: 'Oversized items',
        },
      ])
      .returning({ id: mailroomLocations.id });

    const now = new Date();
    const items = [
      { type: 'package', sender: 'Amazon', courier: 'Amazon', hoursAgo: 1, status: 'pending', who: 0, where: 0 },
      { type: 'package', sender: 'Apple', courier: 'UPS', hoursAgo: 3, status: 'notified', who: 1, where: 0 },
      { type: 'letter', sender: 'City of Portland', courier: 'USPS', hoursAgo: 5, status: 'pending', who: 2, where: 2 },
      {
        type: 'certified_mail',
        sender: 'Law Office of R. Diaz',
        courier: 'USPS',
        hoursAgo: 30,
        status: 'delivered',
        who: 3,
        where: 2,
      },
      { type: 'package', sender: 'Zappos', courier: 'FedEx', hoursAgo: 100, status: 'notified', who: 4, where: 1 },
      { type: 'package', sender: 'IKEA', courier: 'DHL', hoursAgo: 52, status: 'delivered', who: 5, where: 3 },
    ] as const;
    for (const it of items) {
      const arrivedAt = addMs(now, -it.hoursAgo * 3600_000);
      const handedOver = it.status === 'delivered';
      const [item] = await tx
        .insert(mailItems)
        .values({
          organizationId,
          recipientId: people[it.who]!.id,
          locationId: handedOver ? null : locations[it.where]!.id,
          type: it.type,
          sender: it.sender,
          courierCompany: it.courier,
          status: it.status,
          arrivedAt,
          notifiedAt: it.status === 'pending' ? null : addMs(arrivedAt, 600_000),
          deliveredAt: handedOver ? addMs(arrivedAt, DAY_MS / 2) : null,
          // The demo's story: each delivered item was collected by its own recipient, named as
          // the desk would type them (never a placeholder a reader could take for a name).
          collectorName: handedOver ? `${people[it.who]!.firstName} ${people[it.who]!.lastName}` : null,
          createdBy: user.id,
        })
        .returning({ id: mailItems.id });
      await tx.insert(mailItemHistory).values({
        organizationId,
        mailItemId: item!.id,
        action: 'created',
        newStatus: 'pending',
        performedBy: user.id,
        createdAt: arrivedAt,
      });
    }
  });
  return DEMO_LOGIN;
}
