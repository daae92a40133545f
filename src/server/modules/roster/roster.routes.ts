import { z } from 'zod';
import {
  RosterPreview,
  RosterRun,
  RosterRunParams,
  RosterRunsPage,
  RosterRunsQuery,
  RosterSource,
  RosterSourceBody,
  RosterSourceParams,
} from '../../../contract';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import { callerOf } from '../../plugins/organization';
import type { RosterService } from './roster.service';

/** Settings → Roster (decision 061), admins only: HTTP only. */
export function rosterRoutes(app: App, roster: RosterService) {
  const tags = ['Roster'];
  const admin = [app.authenticate, app.requireOrganization, app.requireAdmin];

  app.get('/api/roster/sources', {
    schema: {
      tags,
      summary: "The organization's roster source (admin); secrets are never replied",
      response: { 200: z.array(RosterSource), ...errorReplies(400, 401, 403) },
    },
    preValidation: admin,
    handler: async (request) => roster.listSources(callerOf(request)),
  });

  app.post('/api/roster/sources', {
    schema: {
      tags,
      summary: 'Set up the roster source: HTTPS URL (optional header) or SFTP, mapping, schedule (admin)',
      description:
        '400 for an http URL, a private address, or a cron expression that never fires; 409 ' +
        '`roster_source_exists` when the organization has one already.',
      body: RosterSourceBody,
      response: { 201: RosterSource, ...errorReplies(400, 401, 403, 409) },
    },
    preValidation: admin,
    handler: async (request, reply) =>
      reply.status(201).send(await roster.createSource(callerOf(request), request.body)),
  });

  app.put('/api/roster/sources/:id', {
    schema: {
      tags,
      summary: 'Change the roster source (admin); a secret left out stays as stored',
      params: RosterSourceParams,
      body: RosterSourceBody,
      response: { 200: RosterSource, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: admin,
    handler: async (request) => roster.updateSource(callerOf(request), request.params.id, request.body),
  });

  app.delete('/api/roster/sources/:id', {
    schema: {
      tags,
      summary: 'Remove the roster source and its runs (admin); the recipients stay',
      params: RosterSourceParams,
      response: { 204: z.null(), ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: admin,
    handler: async (request, reply) => {
      await roster.removeSource(callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  });

  app.post('/api/roster/sources/:id/run', {
    schema: {
      tags,
      summary: 'Run the roster now (admin): fetched, diffed, applied or kept for approval',
      description: '409 `roster_run_under_way` while another run of the source is under way.',
      params: RosterSourceParams,
      response: { 200: RosterRun, ...errorReplies(400, 401, 403, 404, 409) },
    },
    preValidation: admin,
    handler: async (request) => roster.runNow(callerOf(request), request.params.id),
  });

  app.get('/api/roster/runs', {
    schema: {
      tags,
      summary: 'Roster runs, newest first, with their counts and errors (admin)',
      querystring: RosterRunsQuery,
      response: { 200: RosterRunsPage, ...errorReplies(400, 401, 403) },
    },
    preValidation: admin,
    handler: async (request) => roster.listRuns(callerOf(request), request.query),
  });

  app.get('/api/roster/runs/:id/preview', {
    schema: {
      tags,
      summary: 'What a run adds, changes, moves and marks as left (admin)',
      params: RosterRunParams,
      response: { 200: RosterPreview, ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: admin,
    handler: async (request) => roster.preview(callerOf(request), request.params.id),
  });

  app.post('/api/roster/runs/:id/approve', {
    schema: {
      tags,
      summary: 'Approve a waiting run: its changes are applied (admin)',
      description:
        '409 `roster_run_not_waiting` for a run not waiting; 409 `roster_run_superseded` when a later run was applied.',
      params: RosterRunParams,
      response: { 200: RosterRun, ...errorReplies(400, 401, 403, 404, 409) },
    },
    preValidation: admin,
    handler: async (request) => roster.approve(callerOf(request), request.params.id),
  });

  app.post('/api/roster/runs/:id/reject', {
    schema: {
      tags,
      summary: 'Reject a waiting run: nothing is changed (admin)',
      params: RosterRunParams,
      response: { 200: RosterRun, ...errorReplies(400, 401, 403, 404, 409) },
    },
    preValidation: admin,
    handler: async (request) => roster.reject(callerOf(request), request.params.id),
  });
}
