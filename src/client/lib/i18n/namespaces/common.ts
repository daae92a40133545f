import english from '../../../../locales/en/common.json';
import { defineCatalogue } from '../catalogue';

/** Words every screen shares: statuses, item types, "Unknown". */
export const commonMessages = defineCatalogue(
  english,
  import.meta.glob(['../../../../locales/*/common.json', '!../../../../locales/en/common.json'], {
    import: 'default',
  }),
);
