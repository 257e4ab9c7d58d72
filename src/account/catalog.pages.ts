import type { ComponentView, ModelSummaryView, ModelView, NodeView, PageView } from '../presenters/catalog.presenter';
import { escapeHtml, layout, when, type Viewer } from './layout';

interface CatalogPageOptions {
  viewer: Viewer | null;
  search: string;
  models: ModelSummaryView[];
  components: PageView<ComponentView>;
  error?: string;
}

const modelLink = (ctId: string) => `/catalog/${encodeURIComponent(ctId)}/`;

export function catalogPage(opts: CatalogPageOptions): string {
  const models = opts.models
    .map(
      (m) => `<tr data-model="${escapeHtml(m.ctId)}"><td><a href="${modelLink(m.ctId)}">${escapeHtml(m.title)}</a></td>
<td>${escapeHtml(m.projectName)}</td><td>${escapeHtml(m.description ?? '')}</td><td>${when(m.updated)}</td></tr>`,
    )
    .join('\n');
  const components = opts.components.results
    .map(
      (c) => `<tr data-component="${escapeHtml(c.ctId)}"><td>${escapeHtml(c.label)}</td><td>${escapeHtml(c.componentType)}</td>
<td>${escapeHtml(c.projectName)}</td><td>${c.status}${c.status === 'draft' ? ' (yours)' : ''}</td><td><code>${escapeHtml(c.ctId)}</code></td></tr>`,
    )
    .join('\n');
  const { count, page, pageSize } = opts.components;
  const pageLink = (n: number) => `/catalog/?${new URLSearchParams({ ...(opts.search ? { search: opts.search } : {}), page: String(n) }).toString()}`;
  const more =
    count > pageSize
      ? `<nav class="pager" aria-label="Component pages"><span>${count} components, page ${page} of ${Math.ceil(count / pageSize)}</span>${
          page > 1 ? `<a href="${escapeHtml(pageLink(page - 1))}" rel="prev">Previous</a>` : ''
        }${page * pageSize < count ? `<a href="${escapeHtml(pageLink(page + 1))}" rel="next">Next</a>` : ''}</nav>`
      : '';
  return layout({
    title: 'Catalog',
    section: 'catalog',
    viewer: opts.viewer,
    body: `${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}
<form method="get" action="/catalog/" role="search"><p><label class="field" for="id_search">Search models and components</label>
<input id="id_search" name="search" type="search" maxlength="200" value="${escapeHtml(opts.search)}"> <button type="submit">Search</button></p></form>
<p class="hint">${opts.viewer ? 'Published entries and your own drafts.' : 'Published entries; sign in to see your drafts too.'}</p>
<h2>Data models</h2>
<div class="table-scroll" role="region" tabindex="0" aria-label="Data models"><table><thead><tr><th scope="col">Title</th><th scope="col">Project</th><th scope="col">Description</th><th scope="col">Updated</th></tr></thead>
<tbody>${models || '<tr><td colspan="4">No models found.</td></tr>'}</tbody></table></div>
<h2>Components</h2>
<div class="table-scroll" role="region" tabindex="0" aria-label="Components"><table><thead><tr><th scope="col">Label</th><th scope="col">Type</th><th scope="col">Project</th><th scope="col">Status</th><th scope="col">ct_id</th></tr></thead>
<tbody>${components || '<tr><td colspan="5">No components found.</td></tr>'}</tbody></table></div>${more}`,
  });
}

function treeNode(node: NodeView): string {
  const children = node.children.length ? `<ul>${node.children.map(treeNode).join('')}</ul>` : '';
  return `<li><strong>${escapeHtml(node.label)}</strong> <span class="hint">${escapeHtml(node.type)}${node.units ? ` · ${escapeHtml(node.units)}` : ''}</span>${children}</li>`;
}

export function modelPage(opts: { viewer: Viewer | null; model: ModelView; schemaUrl: string | null }): string {
  const { model } = opts;
  const artefacts = Object.entries(model.artifacts)
    .map(([key, url]) => `<li><a href="${escapeHtml(url)}">${escapeHtml(key)}</a></li>`)
    .join('');
  return layout({
    title: model.title,
    section: 'catalog',
    viewer: opts.viewer,
    body: `<dl><dt>Status</dt><dd>${model.published ? 'published' : 'draft (only you see it)'}</dd>
<dt>Project</dt><dd>${escapeHtml(model.projectName)}</dd><dt>ct_id</dt><dd><code>${escapeHtml(model.ctId)}</code></dd>
${model.description ? `<dt>Description</dt><dd>${escapeHtml(model.description)}</dd>` : ''}
${opts.schemaUrl ? `<dt>Schema (dmlib)</dt><dd><a href="${escapeHtml(opts.schemaUrl)}" data-testid="dmlib-url"><code>${escapeHtml(opts.schemaUrl)}</code></a></dd>` : ''}
<dt>Updated</dt><dd>${when(model.updated)}</dd></dl>
<h2>Tree</h2><ul class="tree" data-testid="tree">${treeNode(model.root)}</ul>
<h2>Artefacts</h2><ul data-testid="artefacts">${model.packageUrl ? `<li><a href="${escapeHtml(model.packageUrl)}">Stored package (ZIP)</a></li>` : ''}${artefacts}</ul>
<p><a href="/catalog/">Back to the catalog</a></p>`,
  });
}
