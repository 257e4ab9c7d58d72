import type { JobView } from '../../../src/presenters/job.presenter';
import { renderTask } from '../../../src/presenters/task.presenter';

/** The task answer in the words the small-business agent polls for: it stops on completed/failed only. */

const kept = { dmCtId: 'dm1', modelUrl: 'http://m', catalogUrl: 'http://c', packageUrl: null };

const job = (patch: Partial<JobView>): JobView => ({
  ctId: 'job1',
  url: 'http://studio/api/v1/jobs/job1/',
  kind: 'assemble',
  status: 'queued',
  step: null,
  costCredits: 0,
  result: null,
  error: null,
  dataSourceCtId: 'ds1',
  dmCtId: null,
  taskId: 'task-1',
  created: new Date('2026-01-01T00:00:00Z'),
  updated: new Date('2026-01-01T00:00:00Z'),
  ...patch,
});

describe('renderTask', () => {
  it.each([
    ['queued', 'queued'],
    ['running', 'processing'],
  ] as const)('keeps a %s job polling as %s, without artifacts or error', (status, word) => {
    const body = renderTask({ job: job({ status, step: 'modeling' }), title: 'T', artifacts: null });
    expect(body).toMatchObject({ status: word, step: 'modeling', task_id: 'task-1', title: 'T' });
    expect(body).not.toHaveProperty('artifacts');
    expect(body).not.toHaveProperty('error');
  });

  it('ends a completed job with its model and artefact links', () => {
    const artifacts = { xsd: 'http://studio/x.xsd' } as never;
    const body = renderTask({ job: job({ status: 'completed', dmCtId: 'dm1', result: kept }), title: 'T', artifacts });
    expect(body).toMatchObject({ status: 'completed', dm_ct_id: 'dm1', ct_id: 'dm1', title: 'T', artifacts, result: { dm_ct_id: 'dm1' } });
  });

  it('ends a failed job with the reason as error and message, and what was kept', () => {
    const body = renderTask({
      job: job({ status: 'failed', dmCtId: 'dm1', error: 'finalize_error: disk full', result: kept }),
      title: null,
      artifacts: null,
    });
    expect(body).toMatchObject({ status: 'failed', error: 'finalize_error: disk full', message: 'finalize_error: disk full', dm_ct_id: 'dm1' });
    expect(body).not.toHaveProperty('artifacts');
  });
});
