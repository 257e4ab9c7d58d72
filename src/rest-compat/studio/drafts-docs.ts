import { int, type JsonSchema } from '../../lib/json-schema';
import { parseDraftPage } from '../../parsers/drafts.parser';
import { STUDIO_MAX_PAGE_SIZE } from '../../parsers/catalog.parser';
import type { RouteContext, RouteDoc } from '../route-table';

/** What every route of the drafts API shares: its base path, its OpenAPI docs and its paging. */

export const BASE = '/api/v1/dmgen';

/** The URL of another page of the same list: the request's query with `page` replaced. */
export const pageUrlOf = (ctx: Pick<RouteContext, 'req' | 'services'>) => (page: number) => {
  const url = new URL(ctx.req.originalUrl, ctx.services.links.base);
  url.searchParams.set('page', String(page));
  return ctx.services.links.absolute(`${url.pathname}${url.search}`);
};

export const TAG = 'Drafts';
const PAGE_QUERY = { page: int({ minimum: 1 }), page_size: int({ minimum: 1, maximum: STUDIO_MAX_PAGE_SIZE }) };

export const listDoc = (summary: string, page: JsonSchema): RouteDoc => ({
  summary,
  tag: TAG,
  query: PAGE_QUERY,
  responses: { 200: { description: 'One page of the list.', schema: page } },
});
export const oneDoc = (summary: string, schema: JsonSchema): RouteDoc => ({
  summary,
  tag: TAG,
  responses: { 200: { description: 'The entry.', schema } },
});
export const bodyDoc = (summary: string, body: JsonSchema, responses: RouteDoc['responses'], description?: string): RouteDoc => ({
  summary,
  tag: TAG,
  ...(description ? { description } : {}),
  requestBody: { contentType: 'application/json', schema: body },
  responses,
});
export const CHARGED =
  'Charged at the assembly price (X-SDC-* headers on the 201 and on the 402); a key needs `spend` too. A 402 creates ' +
  'nothing; a retry with the same Idempotency-Key answers the first response without charging again.';

export const pageOf = (ctx: RouteContext) => parseDraftPage({ page: ctx.query.page, pageSize: ctx.query.page_size });
