import { DomainError } from './errors';
import { unstorableTextMessage } from './text';

/**
 * Interface B errors. Two bodies exist (contract, Errors / Interface B):
 * - per endpoint: `{success: false, error: {code, message, details}}` for the endpoint's own codes;
 * - general: `{success: false, error: <string>, errors: {<field>: [<messages>]}, error_code: <code>}` for what
 *   happens before an endpoint looks at its input (401, 413, 415, unknown route, malformed body).
 * Both extend DomainError, so GraphQL carries the same code in `extensions.code`.
 */
export class AppError extends DomainError {
  constructor(
    status: number,
    code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(status, code, message, { details });
    this.name = 'AppError';
  }

  body(): Record<string, unknown> {
    return { success: false, error: { code: this.code, message: this.message, details: this.details } };
  }
}

export class AppGeneralError extends DomainError {
  constructor(
    status: number,
    code: string,
    message: string,
    readonly fieldErrors: Record<string, string[]> = {},
  ) {
    super(status, code, message, { errors: fieldErrors });
    this.name = 'AppGeneralError';
  }

  body(): Record<string, unknown> {
    return { success: false, error: this.message, errors: this.fieldErrors, error_code: this.code };
  }
}

export const INVALID_EXTENSION_MESSAGE = 'Invalid file extension. Allowed extensions: .xsd, .html, .owl';
export const FILENAME_PATTERN_MESSAGE =
  "Invalid filename. Expected the pattern dm-{ct_id}.{ext}, where ct_id is the data model's CUID2 (lower-case letters and digits)";

export const appUnauthenticated = (message = 'Authentication failed: send a valid, active API key in the X-API-Key header.') =>
  new AppGeneralError(401, 'AUTHENTICATION_ERROR', message, { 'X-API-Key': [message] });

export const fileTooLarge = (limitBytes: number) =>
  new AppGeneralError(413, 'FILE_TOO_LARGE', `Upload too large: the limit is ${limitBytes} bytes (MAX_UPLOAD_BYTES).`, {
    file: [`must be at most ${limitBytes} bytes`],
  });

export const unsupportedMediaType = (contentType: string | undefined, accepted: string[]) =>
  new AppGeneralError(
    415,
    'INVALID_FILE_TYPE',
    `Unsupported Content-Type ${contentType ? `"${contentType.slice(0, 100)}"` : '(none)'}: send ${accepted.join(' or ')}.`,
    { 'Content-Type': [`must be ${accepted.join(' or ')}`] },
  );

export const malformedBody = (message: string) => new AppGeneralError(400, 'VALIDATION_ERROR', message, { body: [message] });

/** A field holding text that cannot be stored (NUL, a lone surrogate): refused before any endpoint reads its input. */
export const appUnstorableText = (field: string): AppGeneralError => {
  const message = unstorableTextMessage(field);
  return new AppGeneralError(400, 'VALIDATION_ERROR', message, { [field]: [message] });
};

export const malformedUrl = () => {
  const message = 'Malformed URL: a path segment is not valid percent-encoded UTF-8.';
  return new AppGeneralError(400, 'VALIDATION_ERROR', message, { path: [message] });
};

export const routeNotFound = (method: string, path: string) =>
  new AppGeneralError(404, 'NOT_FOUND', `No endpoint ${method} ${path.slice(0, 200)}.`, {});

export const fileRequired = () => new AppError(400, 'FILE_REQUIRED', 'No file provided: send it in the multipart field "file".');

export const filesRequired = () => new AppError(400, 'FILES_REQUIRED', 'No files provided: send one or more in the multipart field "files".');

export const invalidFileType = (filename: string, allowed: string[]) =>
  new AppError(400, 'INVALID_FILE_TYPE', `Invalid file type: ${allowed.join(' or ')} expected.`, { filename, allowed_extensions: allowed });

export const invalidZip = (reason: string, details: Record<string, unknown> = {}) =>
  new AppError(400, 'INVALID_ZIP', `Invalid ZIP archive: ${reason}`, details);

export const invalidFilename = (filename: string) => new AppError(400, 'INVALID_FILENAME', FILENAME_PATTERN_MESSAGE, { filename });

export const parsingError = (filename: string, message: string) =>
  new AppError(400, 'PARSING_ERROR', `Cannot parse ${filename}: ${message}`, { filename, parser_message: message });

export const xmlRequired = () => new AppError(400, 'XML_REQUIRED', 'No XML provided: send a multipart "file" or a JSON body with "xml_content".');

export const invalidXml = (message: string, rootTag: string | null, extra: Record<string, unknown> = {}) =>
  new AppError(400, 'INVALID_XML', message, { root_tag: rootTag, ...extra });

export const schemaNotFound = (dmCtId: string) =>
  new AppError(404, 'SCHEMA_NOT_FOUND', `No XSD stored for data model dm-${dmCtId}: upload dm-${dmCtId}.xsd first.`, { dm_ct_id: dmCtId });

export const validationFailed = (message: string, details: Record<string, unknown>) => new AppError(422, 'VALIDATION_FAILED', message, details);

export const invalidParameter = (parameter: string, message: string) => new AppError(400, 'INVALID_PARAMETER', message, { parameter });

export const invalidInstanceId = (message: string, instanceId: string | null) =>
  new AppError(400, 'INVALID_INSTANCE_ID', message, { instance_id: instanceId });

export const instanceNotFound = (instanceId: string) =>
  new AppError(404, 'INSTANCE_NOT_FOUND', `No instance ${instanceId.slice(0, 200)}.`, { instance_id: instanceId.slice(0, 200) });

export const invalidQuery = (message: string) => new AppError(400, 'INVALID_QUERY', message, {});
