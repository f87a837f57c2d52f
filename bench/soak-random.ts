/**
 * The soak's random choices, from a seed (mulberry32), so a run's kill schedule and its sequence of
 * exchange kinds are the same again with the same `--seed`. Each use draws from a stream of its
 * own (`streamOf`), so more exchanges in one run do not move the other's kill times. Pure.
 */

export interface Random {
  /** A number in [0, 1). */
  next(): number;
}

export function seeded(seed: number): Random {
  let state = seed >>> 0;
  return {
    next() {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

/** The stream named `name` of a run seeded with `seed`. */
export function streamOf(seed: number, name: string): Random {
  let hash = 2166136261;
  for (const char of `${seed}:${name}`) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return seeded(hash);
}

/** A wait around `meanMs`: drawn uniformly from half of it to one and a half times it. */
export const jittered = (random: Random, meanMs: number): number => meanMs * (0.5 + random.next());

/** One of `weights`' keys, each as likely as its weight (weights of 0 are never drawn). */
export function pickWeighted<K extends string>(random: Random, weights: Readonly<Record<K, number>>): K {
  const entries = (Object.entries(weights) as Array<[K, number]>).filter(([, weight]) => weight > 0);
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  if (total <= 0) throw new Error('no weight above 0');
  let at = random.next() * total;
  for (const [key, weight] of entries) {
    if (at < weight) return key;
    at -= weight;
  }
  return entries[entries.length - 1]![0];
}
