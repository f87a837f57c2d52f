// Pins how a worker's deployment version is named and queried (the spellings Temporal's visibility uses).
import { pinnedQuery, visibilityVersion, workerDeploymentOptions, workerVersion } from './worker-deployment';

describe('worker deployment versions', () => {
  it('run as WORKER_BUILD_ID, else the handler version, with every exchange workflow pinned', () => {
    const versioning = { deploymentName: 'durable-mcp', promote: 'current' as const };
    expect(workerVersion(versioning, 'acme-tools@1.2.0')).toEqual({
      deploymentName: 'durable-mcp',
      buildId: 'acme-tools@1.2.0',
    });
    expect(workerVersion({ ...versioning, buildId: 'b42' }, 'acme-tools@1.2.0').buildId).toBe('b42');
    expect(workerDeploymentOptions({ deploymentName: 'd', buildId: 'b' })).toEqual({
      useWorkerVersioning: true,
      version: { deploymentName: 'd', buildId: 'b' },
      defaultVersioningBehavior: 'PINNED',
    });
  });

  it('are spelled <deployment>:<build id> in visibility, quoted so a build id cannot break the query', () => {
    expect(visibilityVersion({ deploymentName: 'durable-mcp', buildId: 'tools.js@sha256:1a2b' })).toBe(
      'durable-mcp:tools.js@sha256:1a2b',
    );
    expect(pinnedQuery({ deploymentName: 'd', buildId: "it's" })).toBe(
      "TemporalWorkerDeploymentVersion = 'd:it\\'s' AND ExecutionStatus = 'Running'",
    );
  });
});
