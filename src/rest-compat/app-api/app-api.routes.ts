import type { Request } from 'express';
import { mediaType, readJsonObject, readRawBody, readTextBody } from '../../http/body';
import { readIncoming, receiveStream } from '../../storage/incoming-file';
import { unsupportedMediaType } from '../../lib/app-api-errors';
import { parseBooleanParameter, parseSparqlQuery, parseXmlContent, RAW_RDF_EXTENSIONS, rawRdfFilename } from '../../parsers/app.parser';
import { renderInstance } from '../../presenters/instance.presenter';
import { renderRdfUpload, renderSchemaUpload, renderStoredFile } from '../../presenters/upload.presenter';
import { renderValidation } from '../../presenters/validation.presenter';
import type { AppCaller } from '../../services/app-keys.service';
import { route, type AppApiRoute, type RouteContext } from '../route-table';
import { singleFile, withMultipart } from './multipart-input';
import { bool, obj, str } from '../../lib/json-schema';
import { appSuccessSchema } from '../../presenters/app-api.schema';
import { instanceSchema } from '../../presenters/instance.schema';
import { rdfUploadSchema, schemaUploadSchema, storedFileSchema } from '../../presenters/upload.schema';
import { validationSchema } from '../../presenters/validation.schema';

const fileUpload = (field: string, many = false) => ({
  contentType: 'multipart/form-data',
  schema: obj({
    [field]: many
      ? { type: 'array', items: str({ contentMediaType: 'application/octet-stream' }) }
      : str({ contentMediaType: 'application/octet-stream' }),
  }),
});
const sparqlDoc = {
  summary: 'SPARQL query over the stored instances (GET ?query=, or a form / application/sparql-query POST)',
  tag: 'Interface B',
  query: { query: str() },
  responses: { 200: { description: 'SPARQL results in the negotiated format (Accept).', contentType: '*/*' } },
};

const APP_API_PREFIX = '/api/v1';

const MAX_SCHEMA_FILES = 50;
const MAX_SINGLE_FILE_PARTS = 5;
const MAX_QUERY_BODY_BYTES = 1024 * 1024;

const success = (status: number, data: unknown) => ({ status, body: { success: true, data } });

/** Raw XML bodies the toolkit's distribution step sends (clients.md, "Generated application"). */
const RAW_XML_TYPES = new Set(['application/xml', 'text/xml']);

/** validate/xml: a multipart `file` (or `xml_content` field), a JSON body with `xml_content`, or the document itself
 * as an XML body; the booleans come from the body's fields or the query string. */
async function validateXml({ req, services, caller, query }: RouteContext<AppCaller>) {
  const validate = async (xml: string | Uint8Array, fields: Record<string, unknown>) =>
    success(
      201,
      renderValidation(
        await services.app.validation.validate({
          xml,
          generateInstanceId: parseBooleanParameter('generate_instance_id', [fields.generate_instance_id, query.generate_instance_id], true),
          syncTriplestore: parseBooleanParameter('sync_triplestore', [fields.sync_triplestore, query.sync_triplestore], true),
          caller,
        }),
      ),
    );
  if (mediaType(req) === 'application/json') {
    const fields = await readJsonObject(req, services.settings.maxUploadBytes, services.cpu, true);
    return validate(parseXmlContent(fields.xml_content), fields);
  }
  if (RAW_XML_TYPES.has(mediaType(req))) {
    const xml = await readRawBody(req, services.settings.maxUploadBytes);
    return validate(xml.length ? xml : parseXmlContent(''), {});
  }
  return withMultipart(req, services, MAX_SINGLE_FILE_PARTS, async (body) => {
    const fields = Object.fromEntries(body.fields);
    const file = singleFile(body, 'file');
    return validate(file ? await readIncoming(file) : parseXmlContent(fields.xml_content), fields);
  });
}

/** upload/rdf: a multipart `file`, or the RDF itself as a raw Turtle or RDF/XML body (named by `?filename=` or by
 * the model the graph describes). */
async function uploadRdf({ req, services, query, caller }: RouteContext<AppCaller>) {
  const extension = RAW_RDF_EXTENSIONS.get(mediaType(req));
  if (!extension) {
    return withMultipart(req, services, MAX_SINGLE_FILE_PARTS, async (body) =>
      success(201, renderRdfUpload(await services.app.uploads.uploadRdf(singleFile(body, 'file'), caller.organization))),
    );
  }
  const staged = await receiveStream(services.app.files, req, { fieldName: 'file', filename: '' }, services.settings.maxUploadBytes);
  let filename: string;
  try {
    filename = rawRdfFilename(query.filename, await readIncoming(staged), extension);
  } catch (error) {
    await services.app.files.discard(staged.tempPath);
    throw error;
  }
  return success(201, renderRdfUpload(await services.app.uploads.uploadRdf({ ...staged, filename }, caller.organization)));
}

/** The query of GET `?query=`, a form POST or an application/sparql-query body. */
async function sparqlQuery(req: Request): Promise<string> {
  if (req.method !== 'POST') return parseSparqlQuery(req.query.query);
  const type = mediaType(req);
  if (type === 'application/x-www-form-urlencoded')
    return parseSparqlQuery(new URLSearchParams(await readTextBody(req, MAX_QUERY_BODY_BYTES)).get('query'));
  if (type === 'application/sparql-query') return parseSparqlQuery(await readTextBody(req, MAX_QUERY_BODY_BYTES));
  throw unsupportedMediaType(req.headers['content-type'], ['application/x-www-form-urlencoded', 'application/sparql-query']);
}

const sparql = async ({ req, services }: RouteContext<AppCaller>) => {
  const answer = await services.app.sparql.query(await sparqlQuery(req), req.headers.accept);
  return { status: 200, raw: answer.body, headers: { 'Content-Type': answer.contentType } };
};

/** Interface B over HTTP: every route needs an organisation key (checked before the body is read), reads its input,
 * calls one service function and answers `{success: true, data}`. */
export const appApiRoutes: AppApiRoute[] = [
  route({
    method: 'post',
    path: `${APP_API_PREFIX}/upload/zip/`,
    requirement: 'app_key',
    doc: {
      summary: 'Upload the model package ZIP',
      tag: 'Interface B',
      requestBody: fileUpload('file'),
      responses: { 201: { description: 'Stored.', schema: appSuccessSchema(storedFileSchema) } },
    },
    handle: async ({ req, services, caller }) =>
      withMultipart(req, services, MAX_SINGLE_FILE_PARTS, async (body) =>
        success(201, renderStoredFile(await services.app.uploads.uploadZip(singleFile(body, 'file'), caller.organization))),
      ),
  }),
  route({
    method: 'post',
    path: `${APP_API_PREFIX}/upload/schema/`,
    requirement: 'app_key',
    doc: {
      summary: 'Upload model schemas (.xsd, .html, .owl)',
      tag: 'Interface B',
      requestBody: fileUpload('files', true),
      responses: { 201: { description: 'What was stored, and why each other file was not.', schema: appSuccessSchema(schemaUploadSchema) } },
    },
    handle: async ({ req, services, caller }) =>
      withMultipart(req, services, MAX_SCHEMA_FILES, async (body) =>
        success(
          201,
          renderSchemaUpload(
            await services.app.uploads.uploadSchemas(
              body.files.filter((f) => f.fieldName === 'files'),
              caller.organization,
            ),
          ),
        ),
      ),
  }),
  route({
    method: 'post',
    path: `${APP_API_PREFIX}/upload/rdf/`,
    requirement: 'app_key',
    doc: {
      summary: 'Upload the model RDF (multipart `file`, or a raw Turtle or RDF/XML body)',
      tag: 'Interface B',
      description:
        'A raw body (`text/turtle` or `application/rdf+xml`) is stored as `?filename=` when given, else as ' +
        '`dm-<ct_id>.ttl|.rdf` of the first `sdc4:dm-<ct_id>` the graph names.',
      query: { filename: str() },
      requestBody: fileUpload('file'),
      responses: { 201: { description: 'Stored and sent to the triplestore.', schema: appSuccessSchema(rdfUploadSchema) } },
    },
    handle: uploadRdf,
  }),
  route({
    method: 'post',
    path: `${APP_API_PREFIX}/validate/xml/`,
    requirement: 'app_key',
    doc: {
      summary: 'Validate an instance (multipart `file` or `xml_content`, JSON `xml_content`, or raw XML) and store it',
      tag: 'Interface B',
      description:
        'The instance may come as a multipart `file` (or `xml_content` field), as JSON `{xml_content}`, or as the document ' +
        'itself: a raw body with `Content-Type: application/xml` or `text/xml` (any charset), answered exactly as the ' +
        'JSON form; the booleans then come from the query string. Other media types: 415.',
      query: { generate_instance_id: bool, sync_triplestore: bool },
      requestBody: {
        contentType: 'application/json',
        schema: obj({ xml_content: str(), generate_instance_id: bool, sync_triplestore: bool }, ['generate_instance_id', 'sync_triplestore']),
      },
      responses: { 201: { description: 'The validation result.', schema: appSuccessSchema(validationSchema) } },
    },
    handle: validateXml,
  }),
  route({
    method: 'get',
    path: `${APP_API_PREFIX}/instances/:instanceId/`,
    requirement: 'app_key',
    doc: {
      summary: 'A stored instance',
      tag: 'Interface B',
      responses: { 200: { description: 'The instance.', schema: appSuccessSchema(instanceSchema) } },
    },
    handle: async ({ services, params }) => success(200, renderInstance(await services.app.instances.get(String(params.instanceId)))),
  }),
  route({ method: 'get', path: `${APP_API_PREFIX}/sparql`, requirement: 'app_key', handle: sparql, doc: sparqlDoc }),
  route({ method: 'post', path: `${APP_API_PREFIX}/sparql`, requirement: 'app_key', handle: sparql, doc: sparqlDoc }),
  // An authenticated no-op: which organisation a key belongs to (also the benchmark's baseline).
  route({
    method: 'get',
    path: `${APP_API_PREFIX}/whoami/`,
    requirement: 'app_key',
    doc: {
      summary: 'The organisation of the key',
      tag: 'Interface B',
      responses: { 200: { description: 'The organisation.', schema: appSuccessSchema(obj({ organization: str() })) } },
    },
    handle: async ({ caller }) => success(200, { organization: caller.organization }),
  }),
];
