import { z } from 'zod';
import {
  ErrorReply,
  ItemHoldBody,
  PortalExchangeBody,
  PortalItem,
  PortalItemPage,
  PortalItemsQuery,
  PortalLinkRequestBody,
  PortalLinkRequestReply,
  PortalLanguageBody,
  PortalMe,
  PortalPreferencesBody,
  Proxy,
  ProxyBody,
  RecipientPickupCode,
} from '../../../contract';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import type { PortalService } from './portal.service';

const ItemParams = z.object({ id: z.uuid({ message: 'Mail item not found' }) });
const ProxyIdParams = z.object({ proxyId: z.uuid({ message: 'Proxy not found' }) });

/**
 * The recipient's own page (decision 032). Every call but asking for a link and opening one is
 * behind `authenticateRecipient`: the recipient's session cookie, never a staff one, and it acts
 * on that recipient's rows in that organization only.
 */
export function portalRoutes(
  app: App,
  portal: PortalService,
  options: { afterLinkRequest?: (sent: Promise<void>) => void } = {},
) {
  const tags = ['Recipient portal'];
  const guard = app.authenticateRecipient;

  app.post('/api/portal/links', {
    schema: {
      tags,
      summary:
        'Send a sign-in link to the recipient(s) with this email address or phone number; the answer is the same whether anyone has it',
      security: [],
      body: PortalLinkRequestBody,
      response: { 202: PortalLinkRequestReply, ...errorReplies(400, 429) },
    },
    handler: async (request, reply) => {
      const { message, sent } = await portal.requestLink(request.body.address, request.ip);
      options.afterLinkRequest?.(sent);
      return reply.status(202).send({ message });
    },
  });

  app.post('/api/portal/session', {
    schema: {
      tags,
      summary: 'Open a sign-in link: its token (used once) for the recipient session cookie',
      security: [],
      body: PortalExchangeBody,
      response: { 200: PortalMe, ...errorReplies(400, 429), 410: ErrorReply },
    },
    handler: async (request, reply) => {
      const current = await app.peekRecipient(request);
      const result = await portal.exchange(request.body.token, request.ip, current);
      reply.header('cache-control', 'no-store');
      if ('reuse' in result) return portal.me(result.reuse);
      reply.setRecipientSessionCookie(result.token, result.expire);
      return portal.me(result.caller);
    },
  });

  app.delete('/api/portal/session', {
    schema: { tags, summary: 'Sign out of the recipient page', response: { 204: z.null(), ...errorReplies(401) } },
    // Signing out is never refused for the page's write rate.
    config: { portalUnthrottled: true },
    preValidation: guard,
    handler: async (request, reply) => {
      await portal.signOut(request.recipientSessionId);
      reply.clearRecipientSessionCookie();
      return reply.status(204).send(null);
    },
  });

  app.get('/api/portal/me', {
    schema: {
      tags,
      summary: 'Who is signed in, their organization and pickup code',
      response: { 200: PortalMe, ...errorReplies(401) },
    },
    preValidation: guard,
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return portal.me(request.recipientCaller);
    },
  });

  app.post('/api/portal/pickup-code', {
    schema: {
      tags,
      summary: 'A new pickup code for the signed-in recipient; the old one stops working at once',
      response: { 200: RecipientPickupCode, ...errorReplies(401, 429) },
    },
    preValidation: guard,
    handler: async (request) => portal.newCode(request.recipientCaller),
  });

  app.put('/api/portal/language', {
    schema: {
      tags,
      summary: "The recipient's language, for their page and the messages they are sent: en, es, fr, de, pt or zh-Hans",
      body: PortalLanguageBody,
      response: { 200: PortalMe, ...errorReplies(400, 401, 429) },
    },
    preValidation: guard,
    handler: async (request) => portal.setLanguage(request.recipientCaller, request.body.language),
  });

  app.put('/api/portal/preferences', {
    schema: {
      tags,
      summary:
        'The channels the recipient wants to hear on: a non-empty set of those offered to them (channelsOffered), or null for all',
      body: PortalPreferencesBody,
      response: { 200: PortalMe, ...errorReplies(400, 401, 429) },
    },
    preValidation: guard,
    handler: async (request) => portal.setNotifyChannels(request.recipientCaller, request.body.notifyChannels),
  });

  app.get('/api/portal/items', {
    schema: {
      tags,
      summary: "The recipient's waiting items (oldest first) or past ones (newest first), a page at a time",
      querystring: PortalItemsQuery,
      response: { 200: PortalItemPage, ...errorReplies(400, 401) },
    },
    preValidation: guard,
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { state, limit, offset } = request.query;
      return portal.items(request.recipientCaller, state, limit, offset);
    },
  });

  for (const [suffix, variant] of [
    ['photo', 'full'],
    ['photo/thumbnail', 'thumbnail'],
  ] as const) {
    app.get(`/api/portal/items/:id/${suffix}`, {
      schema: {
        tags,
        summary: `The ${variant === 'full' ? 'photo' : 'photo thumbnail'} of one of the recipient's items`,
        params: ItemParams,
        response: { 200: z.unknown().describe('image bytes'), ...errorReplies(400, 401, 404) },
      },
      preValidation: guard,
      handler: async (request, reply) => {
        const photo = await portal.photo(request.recipientCaller, request.params.id, variant);
        return reply
          .header('content-type', photo.contentType)
          .header('cache-control', 'private, max-age=3600')
          .send(photo.bytes);
      },
    });
  }

  app.put('/api/portal/items/:id/hold', {
    schema: {
      tags,
      summary:
        'Ask the desk to hold a waiting item until the end of a date (at most 30 days ahead); null lifts the hold',
      params: ItemParams,
      body: ItemHoldBody,
      response: { 200: PortalItem, ...errorReplies(400, 401, 404, 409, 429) },
    },
    preValidation: guard,
    handler: async (request) => portal.hold(request.recipientCaller, request.params.id, request.body.until),
  });

  app.get('/api/portal/proxies', {
    schema: {
      tags,
      summary: 'The people who may collect for the recipient',
      response: { 200: z.array(Proxy), ...errorReplies(401) },
    },
    preValidation: guard,
    handler: async (request) => portal.proxies(request.recipientCaller),
  });

  app.post('/api/portal/proxies', {
    schema: {
      tags,
      summary: 'Name someone who may collect for the recipient (at most 10; a name once)',
      body: ProxyBody,
      response: { 201: Proxy, ...errorReplies(400, 401, 409, 429) },
    },
    preValidation: guard,
    handler: async (request, reply) =>
      reply.status(201).send(await portal.addProxy(request.recipientCaller, request.body.name)),
  });

  app.delete('/api/portal/proxies/:proxyId', {
    schema: {
      tags,
      summary: "Take someone off the recipient's list of proxies",
      params: ProxyIdParams,
      response: { 204: z.null(), ...errorReplies(400, 401, 404, 429) },
    },
    preValidation: guard,
    handler: async (request, reply) => {
      await portal.removeProxy(request.recipientCaller, request.params.proxyId);
      return reply.status(204).send(null);
    },
  });
}
