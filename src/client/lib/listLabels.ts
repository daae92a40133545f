import type { SettingsList } from '@contract';
import { humanize } from './format';
import { MAIL_STATUS_STYLES } from './statusStyles';

/** A key-like value ("extra_large", "certified_mail"): never shown as it is stored (decision 063). */
const KEY_LIKE = /^[a-z0-9]+(?:[_-][a-z0-9]+)*$/;

/**
 * A value of a Settings list as people read it: a type or size humanised as the mail screens do
 * (mailItemFormat's typeLabel), a status by its badge's label; courier companies, and values an
 * admin wrote with capitals or spaces, as written.
 */
export function listValueLabel(list: SettingsList, value: string): string {
  if (list === 'courierCompanies') return value;
  if (list === 'customStatuses' && Object.hasOwn(MAIL_STATUS_STYLES, value)) {
    return MAIL_STATUS_STYLES[value as keyof typeof MAIL_STATUS_STYLES].label;
  }
  return KEY_LIKE.test(value) ? humanize(value) : value;
}
