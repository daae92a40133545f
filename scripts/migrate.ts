// `npm run db:migrate`: applies the committed migrations (the server also does it on start).
import { withDatabase } from './with-database';

await withDatabase(async () => undefined);
console.log('Migrations applied.');
