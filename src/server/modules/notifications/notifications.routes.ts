import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParams, NotificationMessage, type Language } from '../../../contract';
import { messagesIn } from '../../lib/catalogues';
import { escapeHtml } from './messages';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import { callerOf } from '../../plugins/organization';
import { MAIL_ITEM_NOT_FOUND, type NotificationsService } from './notifications.service';

const page = (language: Language, title: string, body: string) => `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;max-width:480px;margin:64px auto;padding:0 16px;color:#1f2937">
<h1 style="font-size:22px">${title}</h1><p>${body}</p></body></html>`;

/** The notification calls: HTTP only (the service reads and writes). */
export function notificationsRoutes(app: App, notifications: NotificationsService) {
  const ItemParams = IdParams.extend({ id: z.uuid({ message: MAIL_ITEM_NOT_FOUND }) });

  app.get('/api/mail-items/:id/notifications', {
    schema: {
      tags: ['Mail items'],
      summary:
        "The item's messages (email, SMS, webhooks): what was sent, when, and whether it was delivered; newest first",
      params: ItemParams,
      response: { 200: z.array(NotificationMessage), ...errorReplies(400, 401, 403, 404) },
    },
    preValidation: [app.authenticate, app.requireOrganization],
    handler: async (request) => notifications.messagesOfItem(callerOf(request), request.params.id),
  });

  // Opening the link only asks (mail scanners open every link); the button, or a mail client's
  // one-click unsubscribe (RFC 8058), POSTs to it and that opts the recipient out.
  const TokenParams = z.object({ token: z.string().max(200) });
  // In the recipient's language (decision 066); the texts are escaped, none carries markup.
  const texts = (language: Language, name: 'ask' | 'done' | 'invalid') => {
    const t = messagesIn(language);
    return { title: escapeHtml(t(`unsubscribe.${name}.title`)), body: escapeHtml(t(`unsubscribe.${name}.body`)), t };
  };
  const invalid = (language: Language) => {
    const { title, body } = texts(language, 'invalid');
    return page(language, title, body);
  };

  app.get('/api/unsubscribe/:token', {
    schema: {
      tags: ['Notifications'],
      summary: 'The unsubscribe link of a recipient message: a page asking to confirm (public; changes nothing)',
      params: TokenParams,
      security: [],
    },
    handler: async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('vary', 'accept-language');
      const language = await notifications.pageLanguage(request.params.token, request.headers['accept-language']);
      if (!notifications.isUnsubscribeToken(request.params.token)) return reply.status(404).send(invalid(language));
      const { title, body, t } = texts(language, 'ask');
      return reply.send(
        page(
          language,
          title,
          `${body}</p>
<form method="post"><button type="submit" style="font-size:16px;padding:10px 18px;border-radius:8px;border:0;background:#4f46e5;color:#fff">${escapeHtml(t('unsubscribe.ask.button'))}</button></form><p>`,
        ),
      );
    },
  });

  // Form posts (the page's button, RFC 8058's 'List-Unsubscribe=One-Click') are accepted here only.
  void app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, body),
    );
    scope.withTypeProvider<ZodTypeProvider>().post('/api/unsubscribe/:token', {
      schema: {
        tags: ['Notifications'],
        summary: "Unsubscribe: no more email or SMS to that recipient (public; the page's button or one-click)",
        params: TokenParams,
        security: [],
      },
      handler: async (request, reply) => {
        reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('vary', 'accept-language');
        const language = await notifications.pageLanguage(request.params.token, request.headers['accept-language']);
        if (!(await notifications.unsubscribe(request.params.token))) return reply.status(404).send(invalid(language));
        const { title, body } = texts(language, 'done');
        return reply.send(page(language, title, body));
      },
    });
  });
}
