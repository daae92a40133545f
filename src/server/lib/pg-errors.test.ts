import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './pg-errors';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('knows the connection-class errors, wrapped or not', () => {
    for (const err of [
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('57P03', 'the database system is starting up'),
      withCode('08006'),
      withCode('08001'),
      withCode('53300'),
      withCode('ECONNREFUSED'),
      withCode('ECONNRESET'),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
      // drizzle's DrizzleQueryError, and a dual-stack connect's AggregateError
      Object.assign(new Error('Failed query: select 1'), { cause: withCode('57P01') }),
      new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'connect failed'),
    ]) {
      expect(isDatabaseUnavailable(err), String(err.message)).toBe(true);
    }
  });

  it('leaves a statement that is wrong alone (a 500 or a 4xx, never "try again")', () => {
    for (const err of [
      withCode('23505', 'duplicate key'),
      withCode('42P01', 'relation does not exist'),
      withCode('40001', 'could not serialize access'),
      new Error('Connection refused by policy'),
      Object.assign(new Error('Failed query'), { cause: withCode('22P02') }),
      null,
      'ECONNREFUSED',
    ]) {
      expect(isDatabaseUnavailable(err)).toBe(false);
    }
  });
});
