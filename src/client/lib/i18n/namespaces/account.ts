import english from '../../../../locales/en/account.json';
import { defineCatalogue } from '../catalogue';

/** Settings → Account: the person's name, appearance, language. */
export const accountMessages = defineCatalogue(
  english,
  import.meta.glob(['../../../../locales/*/account.json', '!../../../../locales/en/account.json'], {
    import: 'default',
  }),
);
