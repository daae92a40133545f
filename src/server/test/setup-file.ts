import { afterAll } from 'vitest';
import { runFileEnd } from './file-cleanups';

// Once per test file, after its own hooks: closes the apps and drops the databases it made.
afterAll(runFileEnd);
