// `npm run seed`: writes the demo organization into an empty database.
import { seedDemoIfEmpty } from '../src/server/modules/demo/demo-seed';
import { withDatabase } from './with-database';

const login = await withDatabase((db) => seedDemoIfEmpty(db));
console.log(
  login
    ? `Demo organization created. Log in as ${login.email} / ${login.password}`
    : 'The database already has accounts; nothing seeded.',
);
