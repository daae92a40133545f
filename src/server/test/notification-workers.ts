import { afterAll } from 'vitest';
import type { NotificationWorker, WorkerOptions } from '../modules/notifications/worker';
import type { TestApp } from './harness';

/**
 * Notification workers for a test file: they poll fast, with reminders and lease recovery off
 * unless asked, and every one made is stopped when the file's tests end, whatever happens.
 * Call at the top level of the file.
 */
export function testWorkers() {
  const made: NotificationWorker[] = [];
  afterAll(async () => {
    await Promise.all(made.map((w) => w.stop()));
  });
  /** A worker not started yet. */
  const create = (t: TestApp, options: WorkerOptions = {}) => {
    const worker = t.app.notifications.createWorker({ pollMs: 20, reminderEveryMs: 0, recoverEveryMs: 0, ...options });
    made.push(worker);
    return worker;
  };
  /** A running worker. */
  const start = (t: TestApp) => {
    const worker = create(t);
    worker.start();
    return worker;
  };
  /** Sends every message that is due, as the worker does in production, then stops. */
  const drain = async (t: TestApp) => {
    const worker = start(t);
    await worker.idle();
    await worker.stop();
  };
  return { create, start, drain };
}
