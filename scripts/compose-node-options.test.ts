import { composeNodeOptions } from './compose-node-options';

describe("the Node settings of docker-compose.yml's api and worker", () => {
  it("are compose's defaults when the environment sets none of their variables", () => {
    expect(composeNodeOptions('api', {})).toEqual({ NODE_OPTIONS: '--max-semi-space-size=4' });
    expect(composeNodeOptions('worker', {})).toEqual({ NODE_OPTIONS: '--max-old-space-size=1024' });
  });

  it('follow the variables an operator sets, as compose would', () => {
    expect(composeNodeOptions('api', { API_MAX_SEMI_SPACE_MB: '8' })).toEqual({
      NODE_OPTIONS: '--max-semi-space-size=8',
    });
    expect(composeNodeOptions('worker', { WORKER_MAX_OLD_SPACE_MB: '2048' })).toEqual({
      NODE_OPTIONS: '--max-old-space-size=2048',
    });
  });
});
