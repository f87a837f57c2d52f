/**
 * What a stack has started, to stop in reverse order of starting: every stop is tried, then the
 * first error is thrown. It also follows the child processes among them, to say which has exited
 * on its own (a stack whose process died must not be measured or served from).
 */
import type { Child } from './child-processes';

export interface Teardown {
  /** Stopped in reverse order of adding. */
  add(stop: () => Promise<void>): void;
  /** A child process: stopped like the rest, and watched for an exit of its own. */
  addChild(child: Child): Child;
  /** Why a child has exited, if one has. */
  exited(): string | undefined;
  stop(): Promise<void>;
}

export function createTeardown(): Teardown {
  const stops: Array<() => Promise<void>> = [];
  const children: Child[] = [];
  return {
    add: (stop) => void stops.push(stop),
    addChild(child) {
      children.push(child);
      stops.push(() => child.stop());
      return child;
    },
    exited() {
      for (const child of children) {
        const why = child.exited();
        if (why) return `${child.name} ${why}`;
      }
      return undefined;
    },
    async stop() {
      const errors: unknown[] = [];
      for (const fn of stops.splice(0).reverse()) await fn().catch((error: unknown) => errors.push(error));
      if (errors.length) throw errors[0];
    },
  };
}
