import { eq } from 'drizzle-orm';
import { DEFAULT_LANGUAGE, isSupportedLanguage, type OrganizationSettings } from '../../../contract';
import type { DbOrTx } from '../../db/client';
import { organizationSettings } from '../../db/schema';

export type SettingsRow = typeof organizationSettings.$inferSelect;
export type SettingsChanges = Partial<OrganizationSettings>;

function toSettingsDto(s: SettingsRow): OrganizationSettings {
  return {
    packageTypes: s.packageTypes,
    packageSizes: s.packageSizes,
    courierCompanies: s.courierCompanies,
    customStatuses: s.customStatuses,
    allowEditAfterDelivery: s.allowEditAfterDelivery,
    requirePhotoUpload: s.requirePhotoUpload,
    autoNotifyRecipients: s.autoNotifyRecipients,
    sendReminders: s.sendReminders,
    reminderAfterDays: s.reminderAfterDays,
    pickupInstructions: s.pickupInstructions,
    handoverRequiresSignature: s.handoverRequiresSignature,
    handoverRequiresPhoto: s.handoverRequiresPhoto,
    labelMatchThreshold: s.labelMatchThreshold,
    longestHoldDays: s.longestHoldDays,
    defaultLanguage: isSupportedLanguage(s.defaultLanguage) ? s.defaultLanguage : DEFAULT_LANGUAGE,
  };
}

async function find(db: DbOrTx, organizationId: string): Promise<SettingsRow | undefined> {
  const [row] = await db
    .select()
    .from(organizationSettings)
    .where(eq(organizationSettings.organizationId, organizationId));
  return row;
}

export const settingsRepository = {
  /**
   * The organization's settings. Every organization gets its row at creation; one that lacks it
   * (older data) gets the defaults written now, so callers always see a full set.
   */
  async get(db: DbOrTx, organizationId: string): Promise<OrganizationSettings> {
    const existing = await find(db, organizationId);
    if (existing) return toSettingsDto(existing);
    const [created] = await db
      .insert(organizationSettings)
      .values({ organizationId })
      .onConflictDoNothing({ target: organizationSettings.organizationId })
      .returning();
    // A concurrent call may have written it first.
    const row = created ?? (await find(db, organizationId));
    return toSettingsDto(row!);
  },

  /** Writes the given fields (creating the row with defaults for the rest if it is missing). */
  async update(db: DbOrTx, organizationId: string, changes: SettingsChanges): Promise<OrganizationSettings> {
    const [row] = await db
      .insert(organizationSettings)
      .values({ ...changes, organizationId })
      .onConflictDoUpdate({
        target: organizationSettings.organizationId,
        set: { ...changes, updatedAt: new Date() },
      })
      .returning();
    return toSettingsDto(row!);
  },
};
