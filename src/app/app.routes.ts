import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Services } from '../container';
import { malformedUrl, routeNotFound, unsupportedMediaType } from './app-errors';
import { booleanParameter, declaredLength, mediaType, readJsonObject, readTextBody, sendAppError } from './app-http';
import type { AppCaller } from './app-keys.service';
import { discardAll, readIncoming, type IncomingFile } from './incoming-file';
import { presentInstance } from './instance.presenter';
import { readMultipart, type MultipartBody } from './multipart';

export const APP_API_PREFIX = '/api/v1';

/** Paths of Interface B: an unknown method or sub-path under them is a 404 in the general error format. */
const APP_PATHS = ['/upload', '/validate', '/instances', '/sparql', '/whoami'].map((p) => APP_API_PREFIX + p);

const MAX_SCHEMA_FILES = 50;
const MAX_SINGLE_FILE_PARTS = 5;
const MAX_QUERY_BODY_BYTES = 1024 * 1024;

interface Outcome {
  status: number;
  body?: unknown;
  raw?: { contentType: string; text: string };
}

type Handler = (req: Request, caller: AppCaller, res: Response) => Promise<Outcome>;

/** Interface B over HTTP. Each route authenticates the X-API-Key before reading the body, reads its input, calls
 * one service function and answers `{success: true, data}`; errors keep the contract's two shapes. */
export function buildAppRouter(services: Services): Router {
  const router = express.Router();
  const { app, settings, logger } = services;
  const maxFileBytes = settings.maxUploadBytes;

  const endpoint = (handler: Handler) => async (req: Request, res: Response) => {
    let outcome: Outcome | null = null;
    let failure: unknown = null;
    try {
      const caller = await app.keys.authenticate(req.headers['x-api-key']);
      res.locals.appCaller = caller;
      outcome = await handler(req, caller, res);
    } catch (error) {
      failure = error;
    }
    // Staged uploads are gone before the client hears back: what it reads then is what is stored.
    const staged = (res.locals.staged as IncomingFile[] | undefined) ?? [];
    if (staged.length > 0) await discardAll(app.files, staged).catch((error: unknown) => logger.warn({ err: error }, 'staged upload not removed'));
    if (outcome === null) {
      sendAppError(failure, req, res, logger);
      return;
    }
    res.status(outcome.status);
    if (outcome.raw) res.type(outcome.raw.contentType).send(outcome.raw.text);
    else res.json(outcome.body);
  };

  /** The multipart body of an upload; an empty body without a type counts as "no file". */
  const multipart = async (req: Request, res: Response, maxFiles: number): Promise<MultipartBody> => {
    const type = mediaType(req);
    if (type === '' && declaredLength(req) === 0 && !req.headers['transfer-encoding']) return { fields: new Map(), files: [] };
    if (type !== 'multipart/form-data') throw unsupportedMediaType(req.headers['content-type'], ['multipart/form-data']);
    const body = await readMultipart(req, app.files, { maxFileBytes, maxFiles });
    res.locals.staged = body.files;
    return body;
  };
  const single = (body: MultipartBody, field: string) => body.files.find((f) => f.fieldName === field && f.filename !== '');

  router.post(`${APP_API_PREFIX}/upload/zip/`, endpoint(async (req, _caller, res) => {
    const body = await multipart(req, res, MAX_SINGLE_FILE_PARTS);
    return { status: 201, body: { success: true, data: await app.uploads.uploadZip(single(body, 'file')) } };
  }));
  router.post(`${APP_API_PREFIX}/upload/schema/`, endpoint(async (req, _caller, res) => {
    const body = await multipart(req, res, MAX_SCHEMA_FILES);
    return { status: 201, body: { success: true, data: await app.uploads.uploadSchemas(body.files.filter((f) => f.fieldName === 'files')) } };
  }));
  router.post(`${APP_API_PREFIX}/upload/rdf/`, endpoint(async (req, _caller, res) => {
    const body = await multipart(req, res, MAX_SINGLE_FILE_PARTS);
    return { status: 201, body: { success: true, data: await app.uploads.uploadRdf(single(body, 'file')) } };
  }));

  router.post(`${APP_API_PREFIX}/validate/xml/`, endpoint(async (req, caller, res) => {
    const input = await validationInput(req, res);
    const data = await app.validation.validate({
      xml: input.xml,
      generateInstanceId: booleanParameter('generate_instance_id', [input.fields.generate_instance_id, req.query.generate_instance_id], true),
      syncTriplestore: booleanParameter('sync_triplestore', [input.fields.sync_triplestore, req.query.sync_triplestore], true),
      caller,
    });
    return { status: 201, body: { success: true, data } };
  }));

  /** validate/xml input: a multipart `file` (or `xml_content` field), or a JSON body with `xml_content`. */
  const validationInput = async (req: Request, res: Response): Promise<{ xml: string | Uint8Array; fields: Record<string, unknown> }> => {
    const type = mediaType(req);
    if (type === 'application/json') {
      const fields = await readJsonObject(req, maxFileBytes);
      return { xml: requireXml(fields.xml_content), fields };
    }
    const body = await multipart(req, res, MAX_SINGLE_FILE_PARTS);
    const fields = Object.fromEntries(body.fields);
    const file = single(body, 'file');
    return { xml: file ? await readIncoming(file) : requireXml(fields.xml_content), fields };
  };
  const requireXml = (value: unknown): string => app.validation.requireXmlContent(value);

  router.get(`${APP_API_PREFIX}/instances/:instanceId/`, endpoint(async (req) => {
    return { status: 200, body: { success: true, data: presentInstance(await app.instances.get(String(req.params.instanceId))) } };
  }));

  const sparql = endpoint(async (r) => {
    let query: unknown = r.query.query;
    if (r.method === 'POST') {
      const type = mediaType(r);
      if (type === 'application/x-www-form-urlencoded') query = new URLSearchParams(await readTextBody(r, MAX_QUERY_BODY_BYTES)).get('query');
      else if (type === 'application/sparql-query') query = await readTextBody(r, MAX_QUERY_BODY_BYTES);
      else throw unsupportedMediaType(r.headers['content-type'], ['application/x-www-form-urlencoded', 'application/sparql-query']);
    }
    const answer = await app.sparql.query(query, r.headers.accept);
    return { status: 200, raw: { contentType: answer.contentType, text: answer.body } };
  });
  router.get(`${APP_API_PREFIX}/sparql`, sparql);
  router.post(`${APP_API_PREFIX}/sparql`, sparql);

  /** An authenticated no-op: which organisation a key belongs to (also the benchmark's baseline). */
  router.get(`${APP_API_PREFIX}/whoami/`, endpoint(async (_req, caller) => ({ status: 200, body: { success: true, data: { organization: caller.organization } } })));

  router.use(APP_PATHS, appNotFound);
  // A path segment that is not valid percent-encoded UTF-8 fails in the router before any handler runs.
  router.use(APP_PATHS, (error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!(error instanceof URIError)) return next(error);
    sendAppError(malformedUrl(), req, res, logger);
  });
  return router;
}

/** Unknown route, in the general error format (ROLE=app answers every unknown path with it). */
export function appNotFound(req: Request, res: Response): void {
  const error = routeNotFound(req.method, req.originalUrl.split('?')[0] ?? '');
  res.status(error.status).json(error.body());
}
