import { HELP_TOPICS } from './command-line';
import { packageVersion } from './package-version';
import { usage } from './usage';

describe('the help of durable-mcp', () => {
  it.each(HELP_TOPICS)('has help of its own for %s, which the whole help holds too', (topic) => {
    const own = usage(topic);
    expect(own).toMatch(new RegExp(`^Usage:\\n  durable-mcp ${topic}\\b`));
    expect(usage()).toContain(own.slice('Usage:\n'.length));
  });

  it('names --version, and reads the version from the package', () => {
    expect(usage()).toContain('durable-mcp --version');
    expect(packageVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

it("dev's help names every port it opens and the variable that moves it", () => {
  for (const variable of [
    'PORT',
    'TEMPORAL_DEV_PORT',
    'TEMPORAL_DEV_UI_PORT',
    'WORKER_METRICS_PORT',
    'POSTGRES_DEV_PORT',
  ])
    expect(usage('dev')).toContain(variable);
});
