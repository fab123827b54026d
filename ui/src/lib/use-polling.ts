import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Calls `tick` every `intervalMs` for `durationMs` after each `start()`: the workflow writes letters and audit rows
 * shortly after an admin status change, so the page looks again a few times.
 */
export function usePolling(tick: () => void, intervalMs = 1000, durationMs = 10_000) {
  const [round, setRound] = useState(0);
  const tickRef = useRef(tick);
  tickRef.current = tick;

  useEffect(() => {
    if (!round) return;
    let remaining = Math.ceil(durationMs / intervalMs);
    const timer = setInterval(() => {
      tickRef.current();
      if (--remaining <= 0) clearInterval(timer);
    }, intervalMs);
    return () => clearInterval(timer);
  }, [round, intervalMs, durationMs]);

  return useCallback(() => setRound((n) => n + 1), []);
}
