import { startOrder } from './compose-native';

const deps = (dependsOn: string[]) => ({ dependsOn: Object.fromEntries(dependsOn.map((d) => [d, 'service_started'])) });

describe('startOrder', () => {
  it('puts every service after what it depends on', () => {
    const order = startOrder({
      api: deps(['postgresql', 'namespace']),
      namespace: deps(['temporal']),
      temporal: deps(['schema']),
      schema: deps(['postgresql']),
      postgresql: deps([]),
    });
    expect(order).toEqual(['postgresql', 'schema', 'temporal', 'namespace', 'api']);
  });

  it('refuses a cycle and a dependency the file does not have', () => {
    expect(() => startOrder({ a: deps(['b']), b: deps(['a']) })).toThrow(/dependency cycle: a -> b -> a/);
    expect(() => startOrder({ a: deps(['ghost']) })).toThrow(
      /a depends on ghost, which the compose file does not have/,
    );
  });
});
