import { z } from 'zod';
import { Timestamp, optionalText } from './common';

export const LOCATION_TYPES = ['bin', 'shelf', 'locker', 'cabinet'] as const;
export const LocationType = z.enum(LOCATION_TYPES, { message: 'Type is required' });

export const MailroomBody = z.object({
  name: z
    .string({ message: 'Mailroom name is required' })
    .trim()
    .min(1, 'Mailroom name is required')
    .max(255, 'Mailroom name must be less than 255 characters'),
  description: optionalText(1000, 'Description must be less than 1000 characters'),
  isActive: z.boolean().optional(),
});
export const UpdateMailroomBody = MailroomBody.partial();

export const Mailroom = z.object({
  id: z.uuid(),
  organizationId: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  isActive: z.boolean(),
  /** Storage locations in it. */
  locationCount: z.number().int(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Mailroom = z.infer<typeof Mailroom>;

const locationFields = z.object({
  name: z
    .string({ message: 'Location name is required' })
    .trim()
    .min(1, 'Location name is required')
    .max(255, 'Location name must be less than 255 characters'),
  type: LocationType,
  capacity: z.coerce
    .number({ message: 'Capacity must be at least 1' })
    .int('Capacity must be a whole number')
    .min(1, 'Capacity must be at least 1')
    .max(100_000, 'Capacity must be at most 100000'),
  notes: optionalText(1000, 'Notes must be less than 1000 characters'),
  mailroomId: z.uuid({ message: 'Mailroom is required' }),
  isActive: z.boolean().optional(),
});
export const LocationBody = locationFields.extend({ capacity: locationFields.shape.capacity.default(20) });
/** Built from the fields without defaults: zod keeps defaults through .partial(), which would reset them. */
export const UpdateLocationBody = locationFields.partial();

export const Location = z.object({
  id: z.uuid(),
  organizationId: z.uuid(),
  mailroomId: z.uuid(),
  mailroomName: z.string(),
  name: z.string(),
  type: LocationType,
  capacity: z.number().int(),
  /** Items held here that are not yet delivered or returned; kept by the server. */
  currentCount: z.number().int(),
  isFull: z.boolean(),
  isActive: z.boolean(),
  notes: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Location = z.infer<typeof Location>;

export const LocationListQuery = z.object({ mailroomId: z.uuid({ message: 'Invalid mailroom id' }).optional() });

export const LOCATION_NOT_EMPTY = 'Cannot delete storage location';
export const LOCATION_NOT_EMPTY_HINT = 'Move or hand over the mail items stored here first, then delete the location.';
export const MAILROOM_NOT_EMPTY = 'Cannot delete mailroom';
