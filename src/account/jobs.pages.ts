import type { JobEventRow } from '../db/queries/job-events.sql';
import type { JobView } from '../presenters/job.presenter';
import type { TaskView } from '../presenters/task.presenter';
import { credits, escapeHtml, layout, when, type Viewer } from './layout';

export function jobsPage(opts: { viewer: Viewer; jobs: JobView[] }): string {
  const rows = opts.jobs
    .map(
      (
        job,
      ) => `<tr data-job-id="${escapeHtml(job.ctId)}"><td><a href="/account/jobs/${encodeURIComponent(job.ctId)}/">${escapeHtml(job.ctId)}</a></td>
<td>${job.kind}</td><td class="status-${job.status}">${job.status}</td><td>${escapeHtml(job.step ?? '—')}</td>
<td class="num">${credits(job.costCredits)}</td><td>${when(job.created)}</td></tr>`,
    )
    .join('\n');
  return layout({
    title: 'Jobs',
    section: 'jobs',
    viewer: opts.viewer,
    body: `<p class="hint">Your latest jobs, newest first.</p>
<div class="table-scroll" role="region" tabindex="0" aria-label="Jobs"><table>
<thead><tr><th scope="col">Job</th><th scope="col">Kind</th><th scope="col">Status</th><th scope="col">Step</th><th scope="col" class="num">Cost (credits)</th><th scope="col">Created</th></tr></thead>
<tbody>${rows || '<tr><td colspan="6">No jobs yet.</td></tr>'}</tbody></table></div>`,
  });
}

const LINK_LABELS: Record<string, string> = {
  xsd: 'XML Schema',
  xml: 'Example XML',
  json: 'Example JSON',
  jsonld: 'JSON-LD',
  html: 'Documentation (HTML)',
  ttl: 'RDF (Turtle)',
  shacl: 'SHACL shapes',
  gql: 'GraphQL schema',
  zip: 'Package (ZIP)',
  sha1: 'Checksum',
  skeleton: 'Skeleton',
};

/** One job: its state, its steps so far and, once it ended, its result links or error. The script follows it live
 * from the last step shown; without JavaScript the page shows the state it was rendered with. */
export function jobPage(opts: { viewer: Viewer; task: TaskView; events: JobEventRow[] }): string {
  const { job, artifacts, title } = opts.task;
  const seq = opts.events.length ? opts.events[opts.events.length - 1].seq : 0;
  const steps = opts.events
    .map((e) => `<li data-seq="${e.seq}">${e.status}${e.step ? ` · ${escapeHtml(e.step)}` : ''} (${e.at.toISOString()})</li>`)
    .join('');
  const ended = job.status === 'completed' || job.status === 'failed';
  const partial =
    !artifacts && job.dmCtId
      ? `<h2>Result</h2><ul class="results"><li><a href="/catalog/${encodeURIComponent(job.dmCtId)}/">Catalog page of the model built so far</a></li></ul>`
      : '';
  const links = artifacts
    ? `<h2>Result</h2><ul class="results" data-testid="result-links">${
        job.dmCtId ? `<li><a href="/catalog/${encodeURIComponent(job.dmCtId)}/">Catalog page of the model</a></li>` : ''
      }${Object.entries(artifacts)
        .map(([key, url]) => `<li><a href="${escapeHtml(url)}">${escapeHtml(LINK_LABELS[key] ?? key)}</a></li>`)
        .join('')}</ul>`
    : '';
  const error = job.error ? `<h2>Error</h2><p class="error" role="alert" data-testid="job-error">${escapeHtml(job.error)}</p>` : '';
  return layout({
    title: `Job ${job.ctId}`,
    section: 'jobs',
    viewer: opts.viewer,
    scripts: ended ? [] : ['job.js'],
    body: `<div data-job="${escapeHtml(job.ctId)}" data-seq="${seq}" data-status="${job.status}">
<dl><dt>Title</dt><dd>${escapeHtml(title ?? '—')}</dd><dt>Kind</dt><dd>${job.kind}</dd>
<dt>Status</dt><dd id="job-status" class="status-${job.status}" data-testid="job-status">${job.status}</dd>
<dt>Step</dt><dd id="job-step">${escapeHtml(job.step ?? '—')}</dd>
<dt>Cost</dt><dd>${credits(job.costCredits)} credits</dd><dt>Created</dt><dd>${when(job.created)}</dd></dl>
<p id="live" role="status" class="hint">${ended ? 'This job has ended.' : 'Reload the page to see its latest state.'}</p>
<h2>Steps</h2><ol class="steps" id="steps" data-testid="steps">${steps}</ol>
${error}${links}${partial}</div>`,
  });
}
