import type { Request } from 'express';
import type { Services } from '../../container';
import { declaredLength, mediaType } from '../../http/body';
import { discardAll, type IncomingFile } from '../../storage/incoming-file';
import { readMultipart, type MultipartBody } from '../../http/multipart';
import { unsupportedMediaType } from '../../lib/app-api-errors';

/** Reads an upload's multipart body and hands it to `use`; every staged file is gone before the client hears back,
 * so what it reads then is what is stored. An empty body without a type counts as "no file". */
export async function withMultipart<T>(req: Request, services: Services, maxFiles: number, use: (body: MultipartBody) => Promise<T>): Promise<T> {
  const type = mediaType(req);
  if (type === '' && declaredLength(req) === 0 && !req.headers['transfer-encoding']) return use({ fields: new Map(), files: [] });
  if (type !== 'multipart/form-data') throw unsupportedMediaType(req.headers['content-type'], ['multipart/form-data']);
  const body = await readMultipart(req, services.app.files, { maxFileBytes: services.settings.maxUploadBytes, maxFiles });
  try {
    return await use(body);
  } finally {
    await discardAll(services.app.files, body.files).catch((error: unknown) => services.logger.warn({ err: error }, 'staged upload not removed'));
  }
}

/** The named single-file field of a multipart body (a part without a filename is no file). */
export const singleFile = (body: MultipartBody, field: string): IncomingFile | undefined =>
  body.files.find((f) => f.fieldName === field && f.filename !== '');
