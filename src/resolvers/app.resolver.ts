import { GraphQLUpload, type FileUpload } from 'graphql-upload-ts';
import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import type { AppCaller } from '../app/app-keys.service';
import { readIncoming } from '../app/incoming-file';
import type { GraphQLContext } from './context';
import { stage, stageAll } from './uploads';
import { RdfUploadResultType, SchemaUploadResultType, StoredFileType, ValidationResultType } from './app.types';

/** The requirement of Interface B fields: an active X-API-Key (checked by the schema's authChecker). */
export const APP_KEY_REQUIREMENT = 'app_key';
const RequiresAppKey = () => Authorized(APP_KEY_REQUIREMENT);

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
  async uploadZip(@Arg('file', () => GraphQLUpload) file: Promise<FileUpload>, @Ctx() ctx: GraphQLContext): Promise<StoredFileType> {
    return ctx.services.app.uploads.uploadZip(await stage(ctx, file, 'file'));
  }

  @RequiresAppKey()
  @Mutation(() => SchemaUploadResultType, { description: 'upload/schema: dm-{ct_id}.xsd/.html/.owl files stored under dmlib/; bad names go into errors.' })
  async uploadSchemaFiles(@Arg('files', () => [GraphQLUpload]) files: Array<Promise<FileUpload>>, @Ctx() ctx: GraphQLContext): Promise<SchemaUploadResultType> {
    const result = await ctx.services.app.uploads.uploadSchemas(await stageAll(ctx, files, 'files'));
    return { storedFiles: result.stored_files, errors: result.errors };
  }

  @RequiresAppKey()
  @Mutation(() => RdfUploadResultType, { description: 'upload/rdf: a .ttl or .rdf file, parsed, stored under dmlib/ and written to the schema graph.' })
  async uploadRdf(@Arg('file', () => GraphQLUpload) file: Promise<FileUpload>, @Ctx() ctx: GraphQLContext): Promise<RdfUploadResultType> {
    const result = await ctx.services.app.uploads.uploadRdf(await stage(ctx, file, 'file'));
    return { filename: result.filename, path: result.path, size: result.size, triplestoreStatus: result.triplestore_status, graphUri: result.graph_uri };
  }

  @RequiresAppKey()
  @Mutation(() => ValidationResultType, { description: 'validate/xml: an XML instance as a file or as text; stored when valid.' })
  async validateXml(
    @Ctx() ctx: GraphQLContext,
    @Arg('file', () => GraphQLUpload, { nullable: true }) file?: Promise<FileUpload> | null,
    @Arg('xmlContent', () => String, { nullable: true }) xmlContent?: string | null,
    @Arg('generateInstanceId', () => Boolean, { nullable: true, defaultValue: true }) generateInstanceId = true,
    @Arg('syncTriplestore', () => Boolean, { nullable: true, defaultValue: true }) syncTriplestore = true,
  ): Promise<ValidationResultType> {
    const { app } = ctx.services;
    let xml: string | Uint8Array;
    if (file) {
      const staged = await stage(ctx, file, 'file');
      try {
        xml = await readIncoming(staged);
      } finally {
        await app.files.discard(staged.tempPath);
      }
    } else xml = app.validation.requireXmlContent(xmlContent);
    const result = await app.validation.validate({
      xml,
      generateInstanceId: generateInstanceId ?? true,
      syncTriplestore: syncTriplestore ?? true,
      caller: await appCallerOf(ctx),
    });
    return {
      instanceId: result.instance_id,
      dmCtId: result.dm_ct_id,
      dmLabel: result.dm_label,
      validationStatus: result.validation_status,
      storageType: result.storage_type,
      autoCorrectedFields: result.auto_corrected_fields,
      validationErrors: result.validation_errors,
      rdfSyncStatus: result.rdf_sync_status,
    };
  }
}
