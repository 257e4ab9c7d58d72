import { createHash } from 'node:crypto';
import { ALL_ARTIFACTS } from '../../packages/artifacts';
import { matchesEtag, parseDmlibFile, parseSchemaVersion, wantsJson } from '../../parsers/artefacts.parser';
import { renderSchemaVersions, schemaEtag } from '../../presenters/schema-hosting.presenter';
import { renderSkeleton } from '../../presenters/skeleton.presenter';
import { fileResult, route, type RouteContext } from '../route-table';
import { publicReader } from './catalog.routes';
import { skeletonSchema } from '../../presenters/skeleton.schema';
import { schemaVersionsSchema } from '../../presenters/schema-hosting.schema';

/** Public artefact reads: the skeleton and its field mapping, the package's other files, the package ZIP and the
 * published schemas at `/dmlib/`. Anonymous callers see published models; a caller also sees their own drafts. */

const sha1Hex = (content: Buffer) => createHash('sha1').update(content).digest('hex');

// Every single file by its name; the skeleton has its own route below, as it answers JSON too.
const FILE_KINDS = (Object.keys(ALL_ARTIFACTS) as Array<keyof typeof ALL_ARTIFACTS>).filter((kind) => kind !== 'skeleton');

/** A schema version never changes, so a request naming one may be cached for good. */
const CURRENT_SCHEMA_CACHE = 'public, max-age=300, must-revalidate';
const VERSION_CACHE = 'public, max-age=31536000, immutable';

async function dmlib(ctx: RouteContext) {
  const file = parseDmlibFile(ctx.params.file);
  if (file.kind === 'versions') {
    const versions = await ctx.services.schemas.versions(file.dmCtId);
    return { status: 200, body: renderSchemaVersions(versions), headers: { 'Cache-Control': 'public, max-age=60' } };
  }
  const version = parseSchemaVersion(ctx.query.version);
  const schema = await ctx.services.schemas.schema(file.dmCtId, version);
  const headers = { ETag: schemaEtag(schema.sha256), 'Cache-Control': version ? VERSION_CACHE : CURRENT_SCHEMA_CACHE };
  if (matchesEtag(ctx.req.headers['if-none-match'], headers.ETag)) return { status: 304, headers };
  return fileResult(schema, 'application/xml; charset=utf-8', 'inline', headers);
}

export const artefactsRoutes = [
  route({
    method: 'get',
    path: '/api/v1/catalog/dm/:ctId/skeleton/',
    requirement: 'public',
    doc: {
      summary: 'The instance skeleton (XML, or JSON with its field mapping)',
      tag: 'Artefacts',
      responses: { 200: { description: 'The skeleton.', schema: skeletonSchema, alternatives: { 'application/xml': {} } } },
    },
    handle: async (ctx) => {
      const { services, params, req } = ctx;
      const skeleton = await services.packages.skeleton(params.ctId, await publicReader(ctx));
      if (wantsJson(req.headers.accept)) return { status: 200, body: renderSkeleton(skeleton) };
      return fileResult({ fileName: `dm-${params.ctId}-skeleton.xml`, content: skeleton.xml }, 'application/xml; charset=utf-8');
    },
  }),
  ...FILE_KINDS.map((kind) =>
    route({
      method: 'get',
      path: `/api/v1/catalog/dm/:ctId/${kind}/`,
      requirement: 'public',
      doc: {
        summary: `The model’s ${kind} file`,
        tag: 'Artefacts',
        responses: { 200: { description: 'The file, in its own media type.', contentType: '*/*' } },
      },
      handle: async (ctx) => {
        const artifact = await ctx.services.packages.artifact(ctx.params.ctId, kind, await publicReader(ctx));
        return fileResult(artifact, artifact.contentType);
      },
    }),
  ),
  route({
    method: 'get',
    path: '/api/v1/catalog/dms/:ctId/artifacts/zip/',
    requirement: 'public',
    doc: { summary: 'Every artefact as one ZIP', tag: 'Artefacts', responses: { 200: { description: 'The ZIP.', contentType: 'application/zip' } } },
    handle: async (ctx) => {
      return fileResult(await ctx.services.packages.packageZip(ctx.params.ctId, await publicReader(ctx)), 'application/zip', 'attachment');
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/catalog/dm/:ctId/sha1/',
    requirement: 'public',
    doc: {
      summary: "The package ZIP's sha1sum line",
      tag: 'Artefacts',
      responses: { 200: { description: '`<sha1>  <file name>`.', contentType: 'text/plain' } },
    },
    handle: async (ctx) => {
      const stored = await ctx.services.packages.packageZip(ctx.params.ctId, await publicReader(ctx));
      // sha1sum's line, so `sha1sum -c` checks a downloaded package against it.
      return { status: 200, raw: `${sha1Hex(stored.content)}  ${stored.fileName}\n`, headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
    },
  }),
  route({
    method: 'get',
    path: '/dmlib/:file',
    requirement: 'public',
    doc: {
      summary: 'A published model schema (dm-<ct_id>.xsd) or its versions (dm-<ct_id>.versions.json)',
      tag: 'Artefacts',
      query: { version: { type: 'string' } },
      responses: {
        200: { description: 'The XSD, or the versions list.', schema: schemaVersionsSchema, alternatives: { 'application/xml': {} } },
        304: { description: 'Not modified (ETag).' },
      },
    },
    handle: dmlib,
  }),
];
