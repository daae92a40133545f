/**
 * The settings a new organization starts with, as the tests expect them: written out here, not
 * taken from the schema's DEFAULT_SETTINGS, so that a change to the defaults fails a test.
 */
export const EXPECTED_DEFAULT_SETTINGS = {
  packageTypes: ['package', 'letter', 'certified_mail', 'express', 'fragile'],
  packageSizes: ['small', 'medium', 'large', 'extra_large'],
  courierCompanies: ['FedEx', 'UPS', 'DHL', 'USPS', 'Amazon', 'Other'],
  customStatuses: ['pending', 'notified', 'delivered', 'returned'],
  allowEditAfterDelivery: false,
  requirePhotoUpload: false,
  autoNotifyRecipients: true,
  sendReminders: true,
  reminderAfterDays: 3,
  pickupInstructions: null,
  handoverRequiresSignature: true,
  handoverRequiresPhoto: false,
  labelMatchThreshold: 80,
  longestHoldDays: 30,
  defaultLanguage: 'en',
};
