import { isStoredKey, type SettingsList } from '@contract';
import { humanize } from './format';
import { MAIL_STATUS_STYLES } from './statusStyles';

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
  return isStoredKey(value) ? humanize(value) : value;
}
