import { createHash } from 'node:crypto';
import { createLogger, exchangeLogger, logExchange, runAsRequest, sessionRef } from './log';

describe('sessionRef', () => {
  it('names a session by the first 12 hex digits of its sha256, never by the id', () => {
    const id = '6f1d3c1e-8a52-4c1e-9a53-0d6f7b2a9e41';
    const ref = sessionRef(id);
    expect(ref).toEqual({ session: createHash('sha256').update(id).digest('hex').slice(0, 12) });
    expect(ref.session).toMatch(/^[0-9a-f]{12}$/);
    expect(JSON.stringify(ref)).not.toContain(id);
  });
});

describe('the request fields of a log line', () => {
  function capture() {
    const lines: Array<Record<string, unknown>> = [];
    const raw: string[] = [];
    const log = createLogger('test', 'info', {
      destination: {
        write(line: string) {
          raw.push(line);
          lines.push(JSON.parse(line));
        },
      },
    });
    return { log, lines, raw };
  }

  it('adds nothing outside a request', () => {
    const { log, lines } = capture();
    log.info('started');
    expect(lines[0]).not.toHaveProperty('reqId');
    expect(lines[0]).not.toHaveProperty('exchangeId');
  });

  it("adds the request's id to every line, and its exchange once named, through anything it awaits", async () => {
    const { log, lines } = capture();
    await runAsRequest('req-1', async () => {
      log.info('before');
      logExchange('ex-1');
      await new Promise((resolve) => setTimeout(resolve, 1));
      log.child({ component: 'store' }).warn('deep');
    });
    log.info('after');
    expect(lines.map(({ msg, reqId, exchangeId }) => ({ msg, reqId, exchangeId }))).toEqual([
      { msg: 'before', reqId: 'req-1', exchangeId: undefined },
      { msg: 'deep', reqId: 'req-1', exchangeId: 'ex-1' },
      { msg: 'after', reqId: undefined, exchangeId: undefined },
    ]);
  });

  it('keeps two requests apart', async () => {
    const { log, lines } = capture();
    await Promise.all(
      ['a', 'b'].map((id) =>
        runAsRequest(id, async () => {
          logExchange(`ex-${id}`);
          await new Promise((resolve) => setTimeout(resolve, id === 'a' ? 5 : 1));
          log.info(id);
        }),
      ),
    );
    // Which request logs first is up to the timers (a loaded machine may run them in either order).
    const byMessage = lines.map(({ msg, reqId, exchangeId }) => [msg, reqId, exchangeId]).sort();
    expect(byMessage).toEqual([
      ['a', 'a', 'ex-a'],
      ['b', 'b', 'ex-b'],
    ]);
  });

  it('leaves the exchange to a logger bound to one, writing each key once', () => {
    const { log, lines, raw } = capture();
    runAsRequest('req-2', () => {
      logExchange('ex-of-the-request');
      exchangeLogger(log, { exchangeId: 'ex-bound', workflowId: 'exchange-ex-bound', round: 2 })
        .child({ x: 1 })
        .info('bound');
    });
    expect(lines[0]).toMatchObject({ reqId: 'req-2', exchangeId: 'ex-bound', round: 2 });
    expect(raw[0]!.match(/"exchangeId"/g)).toHaveLength(1);
  });
});

describe('what a log line never carries', () => {
  it('drops bearer tokens, however they are logged: a header, headers, a verified token', () => {
    const raw: string[] = [];
    const log = createLogger('test', 'info', { destination: { write: (line: string) => raw.push(line) } });
    log.info({ authorization: 'Bearer sekrit-1' }, 'a');
    log.info({ headers: { authorization: 'Bearer sekrit-2', accept: 'x' } }, 'b');
    log.info({ req: { headers: { authorization: 'Bearer sekrit-3' } } }, 'c');
    log.info({ auth: { token: 'sekrit-4', clientId: 'app' } }, 'd');
    log.info({ token: 'sekrit-5' }, 'e');
    expect(raw.join('')).not.toMatch(/sekrit/);
    expect(raw.join('')).toContain('"clientId":"app"');
  });
});
