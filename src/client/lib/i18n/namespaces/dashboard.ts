import english from '../../../../locales/en/dashboard.json';
import { defineCatalogue } from '../catalogue';

/** The dashboard: its figures, trends and recent activity. */
export const dashboardMessages = defineCatalogue(
  english,
  import.meta.glob(['../../../../locales/*/dashboard.json', '!../../../../locales/en/dashboard.json'], {
    import: 'default',
  }),
);
