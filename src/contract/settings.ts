import { z } from 'zod';
import { LanguageCode } from './language-codes';

export const SETTINGS_LISTS = ['packageTypes', 'packageSizes', 'courierCompanies', 'customStatuses'] as const;
export type SettingsList = (typeof SETTINGS_LISTS)[number];
/** The statuses the mail item lifecycle depends on; they cannot be removed from customStatuses. */
export const CORE_STATUSES = ['pending', 'notified', 'delivered'] as const;

/** The label match threshold's bounds, in percent (decision 041). */
export const LABEL_MATCH_THRESHOLD_MIN = 50;
export const LABEL_MATCH_THRESHOLD_MAX = 100;
export const LABEL_MATCH_THRESHOLD_RANGE = 'Match threshold must be between 50 and 100';

/**
 * The longest hold (decision 052): an item is held at its recipient's request for at most this many
 * days in all, counted from the day it was first held; a renewal never goes past it.
 */
export const LONGEST_HOLD_DAYS_DEFAULT = 30;
export const LONGEST_HOLD_DAYS_MIN = 1;
export const LONGEST_HOLD_DAYS_MAX = 365;
export const LONGEST_HOLD_DAYS_RANGE = 'The longest hold must be between 1 and 365 days';

export const OrganizationSettings = z.object({
  packageTypes: z.array(z.string()),
  packageSizes: z.array(z.string()),
  courierCompanies: z.array(z.string()),
  customStatuses: z.array(z.string()),
  allowEditAfterDelivery: z.boolean(),
  requirePhotoUpload: z.boolean(),
  autoNotifyRecipients: z.boolean(),
  sendReminders: z.boolean(),
  reminderAfterDays: z.number().int(),
  pickupInstructions: z.string().nullable(),
  /** What a hand-over needs (decision 031). */
  handoverRequiresSignature: z.boolean(),
  handoverRequiresPhoto: z.boolean(),
  /**
   * Label reading (issue 28): a label's best recipient match at or above this confidence (percent)
   * fills in the recipient; below it the clerk picks from the candidates.
   */
  labelMatchThreshold: z.number().int(),
  /** Days an item may be held in all, from the day it was first held (decision 052). */
  longestHoldDays: z.number().int(),
  /** The language of messages to recipients who have none of their own (decision 066). */
  defaultLanguage: LanguageCode,
});
export type OrganizationSettings = z.infer<typeof OrganizationSettings>;

/** A customization list holding a value twice (in any case); the issue names the value in `params.value`. */
export const VALUE_ALREADY_EXISTS = 'Value already exists';

/**
 * A list: values are trimmed and blank ones dropped (spec §5); a duplicate (case-insensitive)
 * is refused with 'Value already exists'.
 */
const settingsList = z
  .array(z.string().max(50, 'Values must be at most 50 characters'), { message: 'Must be a list of values' })
  .max(100, 'A list can hold at most 100 values')
  .transform((values) => values.map((v) => v.trim()).filter((v) => v !== ''))
  .superRefine((values, ctx) => {
    const seen = new Set<string>();
    for (const v of values) {
      const key = v.toLowerCase();
      if (seen.has(key)) {
        ctx.addIssue({ code: 'custom', message: VALUE_ALREADY_EXISTS, params: { value: v } });
        return;
      }
      seen.add(key);
    }
  });

/** PUT /api/organization-settings/{orgId}: any subset (the client sends one key at a time). */
export const UpdateOrganizationSettingsBody = z
  .object({
    packageTypes: settingsList,
    packageSizes: settingsList,
    courierCompanies: settingsList,
    customStatuses: settingsList,
    allowEditAfterDelivery: z.boolean(),
    requirePhotoUpload: z.boolean(),
    autoNotifyRecipients: z.boolean(),
    sendReminders: z.boolean(),
    reminderAfterDays: z
      .number({ message: 'Reminder days must be a number' })
      .int('Reminder days must be a whole number')
      .min(1, 'Reminder days must be between 1 and 30')
      .max(30, 'Reminder days must be between 1 and 30'),
    pickupInstructions: z
      .string()
      .trim()
      .max(500, 'Pickup instructions must be at most 500 characters')
      .transform((v) => (v === '' ? null : v))
      .nullable(),
    handoverRequiresSignature: z.boolean(),
    handoverRequiresPhoto: z.boolean(),
    labelMatchThreshold: z
      .number({ message: 'Match threshold must be a number' })
      .int('Match threshold must be a whole number')
      .min(LABEL_MATCH_THRESHOLD_MIN, LABEL_MATCH_THRESHOLD_RANGE)
      .max(LABEL_MATCH_THRESHOLD_MAX, LABEL_MATCH_THRESHOLD_RANGE),
    longestHoldDays: z
      .number({ message: 'The longest hold must be a number of days' })
      .int('The longest hold must be a whole number of days')
      .min(LONGEST_HOLD_DAYS_MIN, LONGEST_HOLD_DAYS_RANGE)
      .max(LONGEST_HOLD_DAYS_MAX, LONGEST_HOLD_DAYS_RANGE),
    defaultLanguage: LanguageCode,
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'Nothing to update');
