import english from '../../../../locales/en/shell.json';
import { defineCatalogue } from '../catalogue';

/** The app shell: navigation, the signed-in person, the Settings screen's frame. */
export const shellMessages = defineCatalogue(
  english,
  import.meta.glob(['../../../../locales/*/shell.json', '!../../../../locales/en/shell.json'], { import: 'default' }),
);

export type ShellKey = keyof typeof english;
