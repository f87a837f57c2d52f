import { isStartupTimeout, startWithRetries } from './server-start';

const timeout = () =>
  new Error('Failed to start ephemeral server: ephemeral server at 127.0.0.1:1 did not start within 5s.');

describe('startWithRetries', () => {
  it('tries again after a startup timeout and returns the first success', async () => {
    const start = jest.fn().mockRejectedValueOnce(timeout()).mockRejectedValueOnce(timeout()).mockResolvedValue('env');
    await expect(startWithRetries(start, 4)).resolves.toBe('env');
    expect(start).toHaveBeenCalledTimes(3);
  });

  it('throws the last timeout once the attempts are spent', async () => {
    const start = jest.fn().mockRejectedValue(timeout());
    await expect(startWithRetries(start, 2)).rejects.toThrow(/did not start within/);
    expect(start).toHaveBeenCalledTimes(2);
  });

  it('throws any other error at once', async () => {
    const start = jest.fn().mockRejectedValue(new Error('ephemeral server executable does not exist: /x'));
    await expect(startWithRetries(start, 4)).rejects.toThrow(/does not exist/);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('tells the timeout from other errors', () => {
    expect(isStartupTimeout(timeout())).toBe(true);
    expect(isStartupTimeout(new Error('connection refused'))).toBe(false);
    expect(isStartupTimeout('did not start within')).toBe(false);
    expect(isStartupTimeout(null)).toBe(false);
    // An error made in another realm (the SDK's native bridge, seen from jest's sandbox).
    const foreign = Object.create(null) as { message: string };
    foreign.message = timeout().message;
    expect(isStartupTimeout(foreign)).toBe(true);
  });
});
