import type { ExchangeStore } from '../lib/db/exchange-store';
import type { ExchangeEvent, ExchangeInput, Listening } from '../lib/exchange/types';
import { createRoundNotifier } from './round-notifier';

const exchange = { exchangeId: 'x-1' } as ExchangeInput;

function notifierListeningTo(listening: Listening) {
  const stored: ExchangeEvent[] = [];
  const store = {
    appendEvent: async (_e: unknown, _w: unknown, _r: unknown, event: ExchangeEvent) => void stored.push(event),
  };
  return { stored, notifier: createRoundNotifier(store as unknown as ExchangeStore, exchange, 'wf', 1, listening) };
}

describe('round notifier: the one place that decides which events a client gets', () => {
  it('stores progress only for a leg with a progress token', async () => {
    const silent = notifierListeningTo({});
    await silent.notifier.progress(1, 2);
    expect(silent.stored).toEqual([]);

    const listening = notifierListeningTo({ progressToken: 't' });
    await listening.notifier.progress(1, 2, 'half');
    expect(listening.stored).toEqual([{ kind: 'progress', progress: 1, total: 2, message: 'half' }]);
  });

  it('stores logs at or above the leg level, and none when the leg set no level', async () => {
    const none = notifierListeningTo({ progressToken: 't' });
    await none.notifier.sendLog('error', 'boom');
    expect(none.stored).toEqual([]);

    const warning = notifierListeningTo({ logLevel: 'warning' });
    await warning.notifier.sendLog('info', 'quiet');
    await warning.notifier.sendLog('warning', 'careful');
    await warning.notifier.sendLog('critical', 'down', 'db');
    expect(warning.stored).toEqual([
      { kind: 'log', level: 'warning', data: 'careful', logger: undefined },
      { kind: 'log', level: 'critical', data: 'down', logger: 'db' },
    ]);
  });
});
