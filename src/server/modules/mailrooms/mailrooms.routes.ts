import { z } from 'zod';
import {
  IdParams,
  Location,
  LocationBody,
  LocationListQuery,
  LOCATION_NOT_EMPTY,
  LOCATION_NOT_EMPTY_HINT,
  Mailroom,
  MailroomBody,
  MAILROOM_NOT_EMPTY,
  UpdateLocationBody,
  UpdateMailroomBody,
} from '../../../contract';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import { callerOf } from '../../plugins/organization';
import type { MailroomsService } from './mailrooms.service';

export function mailroomsRoutes(app: App, mailrooms: MailroomsService) {
  const tags = ['Mailrooms'];
  const member = [app.authenticate, app.requireOrganization];
  const admin = [app.authenticate, app.requireOrganization, app.requireAdmin];

  app.get('/api/mailrooms', {
    schema: {
      tags,
      summary: "The organization's mailrooms with their number of storage locations, by name",
      response: { 200: z.array(Mailroom), ...errorReplies(400, 401, 403) },
    },
    preValidation: member,
    handler: async (request) => mailrooms.listMailrooms(callerOf(request)),
  });

  app.post('/api/mailrooms', {
    schema: {
      tags,
      summary: 'Create a mailroom (admin)',
      body: MailroomBody,
      response: { 201: Mailroom, ...errorReplies(400, 401, 403) },
    },
    preValidation: admin,
    handler: async (request, reply) =>
      reply.status(201).send(await mailrooms.createMailroom(callerOf(request), request.body)),
  });

  app.put('/api/mailrooms/:id', {
    schema: {
      tags,
      summary: 'Update a mailroom (admin); only the fields given change',
      params: IdParams,
      body: UpdateMailroomBody,
      response: { 200: Mailroom, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: admin,
    handler: async (request) => mailrooms.updateMailroom(callerOf(request), request.params.id, request.body),
  });

  app.delete('/api/mailrooms/:id', {
    schema: {
      tags,
      summary: 'Delete a mailroom (admin); refused while it has storage locations or holds items',
      description:
        `409 \`mailroom_not_empty\` ("${MAILROOM_NOT_EMPTY}") while the mailroom still has storage locations or ` +
        'holds mail items not yet delivered or returned: delete or move its locations and hand over or move ' +
        'its items first. Delivered and returned items keep their rows without a mailroom.',
      params: IdParams,
      response: { 204: z.null(), ...errorReplies(400, 401, 403, 404, 409) },
    },
    preValidation: admin,
    handler: async (request, reply) => {
      await mailrooms.deleteMailroom(callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  });

  app.get('/api/mailroom-locations', {
    schema: {
      tags,
      summary: 'Storage locations with their mailroom name, by mailroom name then location name',
      querystring: LocationListQuery,
      response: { 200: z.array(Location), ...errorReplies(400, 401, 403) },
    },
    preValidation: member,
    handler: async (request) => mailrooms.listLocations(callerOf(request), request.query.mailroomId),
  });

  app.post('/api/mailroom-locations', {
    schema: {
      tags,
      summary: 'Create a storage location in one of the organization’s mailrooms (admin)',
      description: '404 when mailroomId is not a mailroom of the organization.',
      body: LocationBody,
      response: { 201: Location, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: admin,
    handler: async (request, reply) =>
      reply.status(201).send(await mailrooms.createLocation(callerOf(request), request.body)),
  });

  app.put('/api/mailroom-locations/:id', {
    schema: {
      tags,
      summary: 'Update a storage location (admin); it may move to another mailroom of the organization',
      description:
        '409 `capacity_below_count` when the capacity would be lower than the items stored there; ' +
        '404 when mailroomId is not a mailroom of the organization.',
      params: IdParams,
      body: UpdateLocationBody,
      response: { 200: Location, ...errorReplies(400, 401, 403, 404, 409) },
    },
    preValidation: admin,
    handler: async (request) => mailrooms.updateLocation(callerOf(request), request.params.id, request.body),
  });

  app.delete('/api/mailroom-locations/:id', {
    schema: {
      tags,
      summary: 'Delete a storage location (admin); refused while it holds items not delivered or returned',
      description:
        `409 \`location_not_empty\` ("${LOCATION_NOT_EMPTY}") while items not yet delivered or returned are ` +
        `stored there. ${LOCATION_NOT_EMPTY_HINT} Delivered and returned items keep their rows without a location.`,
      params: IdParams,
      response: { 204: z.null(), ...errorReplies(400, 401, 403, 404, 409) },
    },
    preValidation: admin,
    handler: async (request, reply) => {
      await mailrooms.deleteLocation(callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  });
}
