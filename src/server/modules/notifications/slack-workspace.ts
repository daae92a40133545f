import { SLACK_MESSAGES, type SlackChannel } from '../../../contract';
import type { IntegrationConfig as StoredConfig } from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { SecretBox } from '../../lib/secrets';
import { classifySlackError, slackAuthTest, slackChannels, type SlackFailure } from './channels/slack';

const TOKEN_PATH = 'config.slackSettings.botToken';

/** A failed check as the admin's reply: the token's fault is a 400 on its field, Slack's trouble a 502. */
function slackError(f: SlackFailure): AppError {
  if (f.kind === 'token' || (f.kind === 'platform' && !f.transient)) {
    const message = `${SLACK_MESSAGES.tokenRefused} (${f.kind === 'token' ? f.error : f.error})`;
    return new AppError(400, message, 'slack_token_refused', [{ path: TOKEN_PATH, message }]);
  }
  return new AppError(502, SLACK_MESSAGES.unreachable, 'slack_unreachable');
}

/**
 * Checks the stored config's bot token with auth.test and writes who it is (workspace, bot) into
 * the config: before anything is saved, so a token Slack refuses saves nothing.
 */
export async function checkSlackConfig(
  apiUrl: string,
  secrets: SecretBox,
  stored: StoredConfig,
): Promise<StoredConfig> {
  const k = stored.slackSettings ?? {};
  const result = await slackAuthTest(apiUrl, secrets.decrypt(k.botToken!));
  if (!result.ok) throw slackError(result.failure);
  const { teamId, teamName, botUserId } = result.identity;
  return {
    ...stored,
    slackSettings: { ...k, teamId, teamName, ...(botUserId ? { botUserId } : {}) },
  };
}

/** The channels the stored token sees, for the staff channel's choice. */
export async function listSlackChannels(
  apiUrl: string,
  secrets: SecretBox,
  stored: StoredConfig,
): Promise<SlackChannel[]> {
  const token = stored.slackSettings?.botToken;
  if (!token) throw new AppError(400, SLACK_MESSAGES.tokenRequired, 'validation_error');
  try {
    return await slackChannels(apiUrl, secrets.decrypt(token));
  } catch (err) {
    throw slackError(classifySlackError(err));
  }
}
