/**
 * The webhook ids the bot has handled, so a repeated delivery (the service retries until it gets a
 * 2xx) is dropped. Bounded: past `max` ids the oldest is forgotten. The service's retries come
 * within minutes, so a few thousand recent ids are plenty; a bot run as several replicas would keep
 * them in a shared store instead.
 */
export class RecentIds {
  private readonly ids = new Set<string>();

  constructor(private readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new Error('RecentIds: max is a positive integer');
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string): void {
    this.ids.delete(id);
    this.ids.add(id);
    // A Set iterates in insertion order: the first is the oldest.
    while (this.ids.size > this.max) this.ids.delete(this.ids.values().next().value as string);
  }

  get size(): number {
    return this.ids.size;
  }
}
