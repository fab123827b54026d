/**
 * A seeded random source for tests that draw their inputs (random requests, rules, hostile values): the same seed
 * gives the same inputs, so a failure prints its seed and is reproduced with it. mulberry32: small and fast.
 */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (from: number, to: number) => from + Math.floor(next() * (to - from + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)];
  const chance = (p: number) => next() < p;
  const some = <T>(items: readonly T[], most: number): T[] => Array.from({ length: int(1, most) }, () => pick(items));
  return { next, int, pick, chance, some };
}
export type SeededRandom = ReturnType<typeof seededRandom>;
