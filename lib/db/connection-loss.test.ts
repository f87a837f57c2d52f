import { connectionLoss, postgresErrorFields } from './connection-loss';

it('reads a server shutting down, a refused and an ended connection as a lost connection, in one line', () => {
  const adminShutdown = Object.assign(new Error('terminating connection due to administrator command'), {
    code: '57P01',
  });
  expect(connectionLoss(adminShutdown)).toEqual({
    reason: 'terminating connection due to administrator command',
    code: '57P01',
  });
  expect(
    connectionLoss(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
  ).toEqual({ reason: 'connect ECONNREFUSED 127.0.0.1:5432', code: 'ECONNREFUSED' });
  expect(connectionLoss(new Error('Connection terminated unexpectedly'))).toEqual({
    reason: 'Connection terminated unexpectedly',
  });
  expect(JSON.stringify(postgresErrorFields(adminShutdown))).not.toContain('stack');
});

it('leaves any other error to be logged with its stack', () => {
  const syntax = Object.assign(new Error('syntax error at or near "SELEC"'), { code: '42601' });
  expect(connectionLoss(syntax)).toBeUndefined();
  expect(postgresErrorFields(syntax)).toEqual({ err: syntax });
});
