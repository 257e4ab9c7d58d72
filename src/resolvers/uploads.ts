import type { Readable } from 'node:stream';
import type { FileUpload } from 'graphql-upload-ts';
import { fileTooLarge } from '../lib/app-api-errors';
import { discardAll, receiveStream, type IncomingFile } from '../storage/incoming-file';
import type { GraphQLContext } from './context';

/** A GraphQL upload staged like a multipart file of the REST routes: past MAX_UPLOAD_BYTES it is the same
 * 413 FILE_TOO_LARGE; the caller owns (and discards) the staged file. */
export async function stage(context: GraphQLContext, upload: Promise<FileUpload>, fieldName: string): Promise<IncomingFile> {
  const { app, settings } = context.services;
  let file: FileUpload;
  let stream: Readable;
  try {
    file = await upload;
    stream = file.createReadStream();
  } catch (error) {
    // graphql-upload-ts cuts a file at the same limit with its own 413 error, thrown by createReadStream once the
    // whole file has been read past it.
    if ((error as { status?: number }).status === 413) throw fileTooLarge(settings.maxUploadBytes);
    throw error;
  }
  return receiveStream(app.files, stream, { fieldName, filename: file.filename }, settings.maxUploadBytes);
}

export async function stageAll(context: GraphQLContext, uploads: Array<Promise<FileUpload>>, fieldName: string): Promise<IncomingFile[]> {
  const staged: IncomingFile[] = [];
  try {
    for (const upload of uploads) staged.push(await stage(context, upload, fieldName));
    return staged;
  } catch (error) {
    await discardAll(context.services.app.files, staged);
    throw error;
  }
}
