import { GraphQLUpload, type FileUpload } from 'graphql-upload-ts';
import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { readIncoming } from '../storage/incoming-file';
import { parseXmlContent } from '../parsers/app.parser';
import type { RdfUploadView, SchemaUploadView } from '../presenters/upload.presenter';
import type { ValidationView } from '../presenters/validation.presenter';
import { APP_KEY, type AppCaller } from '../services/app-keys.service';
import type { StoredFile } from '../storage/file-store';
import type { GraphQLContext } from './context';
import { stage, stageAll } from './uploads';
import { RdfUploadResultType, SchemaUploadResultType, StoredFileType, ValidationResultType } from './app.types';

/** Interface B fields need an active X-API-Key (checked by the schema's authChecker). */
const RequiresAppKey = () => Authorized(APP_KEY);

const callers = new WeakMap<GraphQLContext, Promise<AppCaller>>();

/** Authenticates the request's X-API-Key once per GraphQL request (and counts it once), on the first field that
 * needs it. */
export function appCallerOf(context: GraphQLContext): Promise<AppCaller> {
  let caller = callers.get(context);
  if (!caller) {
    caller = context.services.app.keys.authenticate(context.req?.headers['x-api-key']);
    callers.set(context, caller);
  }
  return caller;
}

/** Interface B over GraphQL: the same services as the REST routes (multipart requests per the GraphQL multipart
 * request spec; clients send `Apollo-Require-Preflight: true`). */
@Resolver()
export class AppResolver {
  @RequiresAppKey()
  @Mutation(() => StoredFileType, { description: 'upload/zip: a .zip package, checked entry by entry, stored under zip/.' })
  async uploadZip(@Arg('file', () => GraphQLUpload) file: Promise<FileUpload>, @Ctx() ctx: GraphQLContext): Promise<StoredFile> {
    return ctx.services.app.uploads.uploadZip(await stage(ctx, file, 'file'), (await appCallerOf(ctx)).organization);
  }

  @RequiresAppKey()
  @Mutation(() => SchemaUploadResultType, {
    description: 'upload/schema: dm-{ct_id}.xsd/.html/.owl files stored under dmlib/; bad names go into errors.',
  })
  async uploadSchemaFiles(
    @Arg('files', () => [GraphQLUpload]) files: Array<Promise<FileUpload>>,
    @Ctx() ctx: GraphQLContext,
  ): Promise<SchemaUploadView> {
    return ctx.services.app.uploads.uploadSchemas(await stageAll(ctx, files, 'files'), (await appCallerOf(ctx)).organization);
  }

  @RequiresAppKey()
  @Mutation(() => RdfUploadResultType, {
    description: 'upload/rdf: a .ttl or .rdf file, parsed, stored under dmlib/ and written to the schema graph.',
  })
  async uploadRdf(@Arg('file', () => GraphQLUpload) file: Promise<FileUpload>, @Ctx() ctx: GraphQLContext): Promise<RdfUploadView> {
    return ctx.services.app.uploads.uploadRdf(await stage(ctx, file, 'file'), (await appCallerOf(ctx)).organization);
  }

  @RequiresAppKey()
  @Mutation(() => ValidationResultType, { description: 'validate/xml: an XML instance as a file or as text; stored when valid.' })
  async validateXml(
    @Ctx() ctx: GraphQLContext,
    @Arg('file', () => GraphQLUpload, { nullable: true }) file?: Promise<FileUpload> | null,
    @Arg('xmlContent', () => String, { nullable: true }) xmlContent?: string | null,
    @Arg('generateInstanceId', () => Boolean, { nullable: true, defaultValue: true }) generateInstanceId = true,
    @Arg('syncTriplestore', () => Boolean, { nullable: true, defaultValue: true }) syncTriplestore = true,
  ): Promise<ValidationView> {
    const { app } = ctx.services;
    let xml: string | Uint8Array;
    if (file) {
      const staged = await stage(ctx, file, 'file');
      try {
        xml = await readIncoming(staged);
      } finally {
        await app.files.discard(staged.tempPath);
      }
    } else xml = parseXmlContent(xmlContent);
    return app.validation.validate({
      xml,
      generateInstanceId: generateInstanceId ?? true,
      syncTriplestore: syncTriplestore ?? true,
      caller: await appCallerOf(ctx),
    });
  }
}
