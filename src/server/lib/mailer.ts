import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

type OutgoingMail = { to: string; subject: string; text: string; html?: string };
export type Mailer = { send: (mail: OutgoingMail) => Promise<void>; close: () => void };

/**
 * Platform email over SMTP_URL. Without SMTP the message (and so any link in it) is written to
 * the server log, which is how a laptop install resets a password.
 */
export function createMailer(smtpUrl: string | undefined, from: string, log: FastifyBaseLogger): Mailer {
  if (!smtpUrl) {
    return {
      send: async (mail) => {
        log.info(
          { mail: { to: mail.to, subject: mail.subject } },
          `Email not sent (no SMTP_URL configured):\n${mail.text}`,
        );
      },
      close: () => undefined,
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    send: async (mail) => {
      await transport.sendMail({ from, ...mail });
    },
    close: () => transport.close(),
  };
}
