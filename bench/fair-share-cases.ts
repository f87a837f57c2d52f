/**
 * The fair-share bench's cases, in the order they run: the quiet caller alone (its idle figures),
 * then beside the flood with neither protection, the quotas alone, the engine's fairness alone,
 * and both. Fairness off is a Temporal server without it: what a server that lacks it does.
 */
export interface FairShareCase {
  name: string;
  label: string;
  flood: boolean;
  quotas: boolean;
  fairness: boolean;
}

export const FAIR_SHARE_CASES: readonly FairShareCase[] = [
  { name: 'idle', label: 'quiet alone (idle service)', flood: false, quotas: false, fairness: false },
  { name: 'flood', label: 'flood, no quotas, fairness off', flood: true, quotas: false, fairness: false },
  { name: 'quotas', label: 'flood, quotas, fairness off', flood: true, quotas: true, fairness: false },
  { name: 'fairness', label: 'flood, no quotas, fairness on', flood: true, quotas: false, fairness: true },
  { name: 'both', label: 'flood, quotas, fairness on', flood: true, quotas: true, fairness: true },
];

/** The dev server's flags that turn the engine's fairness on or off for its task queues. */
export function fairnessFlags(on: boolean): string[] {
  return ['--dynamic-config-value', `matching.enableFairness=${on}`];
}
