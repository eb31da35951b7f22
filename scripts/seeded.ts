/**
 * A seeded random source (mulberry32) and the characters the tracking-number scripts build
 * numbers from, so a run reproduces from its seed.
 */
export function seeded(seed: number) {
  let state = seed;
  const random = (n: number): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
  const digits = (n: number) => Array.from({ length: n }, () => random(10)).join("");
  const letters = (n: number) =>
    Array.from({ length: n }, () => String.fromCharCode(65 + random(26))).join("");
  const alphanumerics = (n: number) =>
    Array.from({ length: n }, () => random(3) === 0 ? letters(1) : digits(1)).join("");
  const pick = <T>(options: readonly T[]): T => options[random(options.length)];
  return { random, digits, letters, alphanumerics, pick };
}
