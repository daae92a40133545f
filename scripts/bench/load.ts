import autocannon from 'autocannon';

export type LoadTarget = { name: string; path: string; headers: Record<string, string> };
export type LoadResult = {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
};

const CONNECTIONS = 50;
const WARM_UP_SECONDS = 2;
const MEASURE_SECONDS = 10;
const SETTLE_MS = 1000;

/** A short unrecorded run (JIT, pool connections, plan caches), then the measured one. */
export async function measureEndpoint(baseUrl: string, target: LoadTarget): Promise<LoadResult> {
  await fire(baseUrl, target, WARM_UP_SECONDS);
  await settle();
  const result = await fire(baseUrl, target, MEASURE_SECONDS);
  await settle();
  return {
    name: target.name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    // Errors (timeouts, resets) are not counted in non2xx, but they are failures all the same.
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/**
 * autocannon ends a run by dropping its sockets with requests still in flight; their handlers keep
 * running on the server. Let them finish so they neither slow the next run nor meet a closed pool.
 */
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

function fire(baseUrl: string, target: LoadTarget, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: baseUrl + target.path,
    method: 'GET',
    headers: target.headers,
    connections: CONNECTIONS,
    duration: seconds,
    // The server runs in this process; one worker thread keeps the load generator off its event loop.
    workers: 1,
  });
}
