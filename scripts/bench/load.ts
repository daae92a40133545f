import autocannon from 'autocannon';

export type LoadTarget = {
  name: string;
  path: string;
  headers: Record<string, string>;
  /** GET unless told. */
  method?: 'GET' | 'POST' | 'PUT';
  /** A fixed body; give content-type in headers. */
  body?: string;
  /**
   * Varies each request: answers the path of a CommonJS module that exports autocannon's
   * `setupRequest(request, context)` (in workers mode autocannon takes a file it requires in the
   * worker, not a function). Called before every run, warm-up included: each run gets a fresh
   * worker, so the module can be written anew with the state the database is in at that moment.
   */
  setupRequest?: (run: Run) => Promise<string>;
};

export type Run = 'warm-up' | 'measured';

export type LoadResult = {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Answered requests of the measured run. */
  requests: number;
  non2xx: number;
  errors: number;
  /** Non-2xx answers by status code, e.g. { '402': 12 }. */
  statusCodes: Record<string, number>;
};

const CONNECTIONS = 50;
/** autocannon worker threads; setupRequest modules split their work between them (workerShare). */
export const LOAD_WORKERS = 2;
const WARM_UP_SECONDS = 2;
const MEASURE_SECONDS = 10;
const SETTLE_MS = 1000;

/**
 * Overrides of the defaults above (50 connections, 2 s warm-up, 10 s measured). `warmUpRequests`
 * warms up for that many requests instead of for a time (a process's JIT warms up by the calls it
 * has served, not by the seconds it has run).
 */
export type LoadOptions = {
  connections?: number;
  warmUpSeconds?: number;
  /** 0: no warm-up (the caller warmed the server up already). */
  warmUpRequests?: number;
  measureSeconds?: number;
  /** Measures this many requests instead of for measureSeconds. */
  measureRequests?: number;
};

/** Called around the measured run only (not the warm-up), e.g. to watch the server meanwhile. */
export type MeasureHooks = { beforeMeasured?: () => Promise<void>; afterMeasured?: () => Promise<void> };

/** A short unrecorded run (JIT, pool connections, plan caches), then the measured one. */
export async function measureEndpoint(
  baseUrl: string,
  target: LoadTarget,
  hooks: MeasureHooks = {},
  options: LoadOptions = {},
): Promise<LoadResult> {
  const connections = options.connections ?? CONNECTIONS;
  const warmUp = options.warmUpSeconds ?? WARM_UP_SECONDS;
  const measureSeconds = options.measureSeconds ?? MEASURE_SECONDS;
  if (options.warmUpRequests !== 0) {
    await fire(
      baseUrl,
      target,
      options.warmUpRequests ? { amount: options.warmUpRequests } : { duration: warmUp },
      await target.setupRequest?.('warm-up'),
      connections,
    );
    await settle();
  }
  const setupRequest = target.setupRequest ? await target.setupRequest('measured') : undefined;
  await hooks.beforeMeasured?.();
  const result = await fire(
    baseUrl,
    target,
    options.measureRequests ? { amount: options.measureRequests } : { duration: measureSeconds },
    setupRequest,
    connections,
  );
  await hooks.afterMeasured?.();
  await settle();
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) {
    if (!code.startsWith('2')) statusCodes[code] = stats.count ?? 0;
  }
  return {
    name: target.name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    // Errors (resets; timeouts are counted among them) are not in non2xx, but they are failures all the same.
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes,
  };
}

/**
 * For setupRequest modules: which share of the work this worker thread takes (0 to
 * LOAD_WORKERS - 1), so that two workers never send the same request. autocannon starts its
 * workers one after the other, so their thread ids are consecutive.
 */
export const workerShareSource = `const workerShare = require('node:worker_threads').threadId % ${LOAD_WORKERS};`;

/**
 * autocannon ends a run by dropping its sockets with requests still in flight; their handlers keep
 * running on the server. Let them finish so they neither slow the next run nor meet a closed pool.
 */
export const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

function fire(
  baseUrl: string,
  target: LoadTarget,
  length: { duration: number } | { amount: number },
  setupRequest: string | undefined,
  connections: number,
): Promise<autocannon.Result> {
  return autocannon({
    url: baseUrl,
    connections,
    ...length,
    // The server runs in this process; worker threads keep the load generator off its event loop.
    // Two, not one: a single worker parsing 100-item replies (117 KB each, ~400 MB/s) became the
    // bottleneck of the measurement while the server's event loop sat half idle.
    workers: LOAD_WORKERS,
    requests: [
      {
        method: target.method ?? 'GET',
        path: target.path,
        headers: target.headers,
        ...(target.body === undefined ? {} : { body: target.body }),
        // A file path in workers mode (see LoadTarget); the typings only know the function form.
        ...(setupRequest ? { setupRequest: setupRequest as unknown as autocannon.Request['setupRequest'] } : {}),
      },
    ],
  });
}
