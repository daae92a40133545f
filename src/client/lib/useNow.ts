import { useEffect, useState } from 'react';

/** The current time, renewed every `intervalMs`: a trial that ends while the page is open shows as ended. */
export function useNow(intervalMs = 60_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
