import { GraphQLUpload, type FileUpload } from 'graphql-upload-ts';
import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { discardAll, readIncoming } from '../storage/incoming-file';
import { parseGenerationRequest, type GenerationKind } from '../parsers/generation.parser';
import type { GenerationView } from '../presenters/generation.presenter';
import type { Caller } from '../services/auth.service';
import { sha256Hex } from '../lib/crypto';
import type { AppProfile } from '../packages/app-compose';
import { CurrentCaller, Requires, type GraphQLContext } from './context';
import { AppProfileEnum } from './enums';
import { IDEMPOTENCY_KEY_DOC, idempotently } from './idempotency';
import { stage } from './uploads';
import { DataSourceUploadType, GenerateResult } from './generation.types';
import { jobNode, type JobNode } from './jobs.types';

async function generate(
  { services }: GraphQLContext,
  caller: Caller,
  kind: GenerationKind,
  dmCtId: string,
  profile: string | null | undefined,
  runAsync: boolean | null | undefined,
): Promise<GenerationView | JobNode> {
  const request = parseGenerationRequest(kind, dmCtId, profile);
  if (runAsync) return jobNode(await services.generation.enqueue(caller, request), services.links);
  return services.generation.runInline(caller, request);
}

@Resolver()
export class GenerationResolver {
  @Requires('build')
  @Mutation(() => GenerateResult, { description: 'Generates the package of a published model of yours, once (409 already_generated after).' })
  async generatePackage(
    @Arg('dmCtId') dmCtId: string,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: GraphQLContext,
    @Arg('async', () => Boolean, { nullable: true, defaultValue: false }) runAsync?: boolean | null,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DOC }) idempotencyKey?: string | null,
  ): Promise<GenerationView | JobNode> {
    return idempotently(ctx, caller, 'generatePackage', idempotencyKey, { dmCtId, runAsync }, () =>
      generate(ctx, caller, 'generate_package', dmCtId, null, runAsync),
    );
  }

  @Requires('spend', { charges: 'app_download' })
  @Mutation(() => GenerateResult, { description: 'Generates the application download of a published model; charges APP_DOWNLOAD_CREDITS.' })
  async generateApp(
    @Arg('dmCtId') dmCtId: string,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: GraphQLContext,
    @Arg('profile', () => AppProfileEnum, { nullable: true, description: 'os when absent.' }) profile?: AppProfile | null,
    @Arg('async', () => Boolean, { nullable: true, defaultValue: false }) runAsync?: boolean | null,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DOC }) idempotencyKey?: string | null,
  ): Promise<GenerationView | JobNode> {
    return idempotently(ctx, caller, 'generateApp', idempotencyKey, { dmCtId, profile, runAsync }, () =>
      generate(ctx, caller, 'generate_app', dmCtId, profile, runAsync),
    );
  }

  @Requires('build', { charges: 'csv_upload' })
  @Mutation(() => DataSourceUploadType, {
    description: 'Uploads a CSV (GraphQL multipart request; send Apollo-Require-Preflight: true); an upload job proposes a draft model.',
  })
  async uploadDataSource(
    @Arg('file', () => GraphQLUpload) file: Promise<FileUpload>,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: GraphQLContext,
    @Arg('idempotencyKey', () => String, { nullable: true, description: IDEMPOTENCY_KEY_DOC }) idempotencyKey?: string | null,
  ): Promise<DataSourceUploadType> {
    const { services } = ctx;
    const staged = await stage(ctx, file, 'file');
    try {
      const content = await readIncoming(staged);
      return await idempotently(
        ctx,
        caller,
        'uploadDataSource',
        idempotencyKey,
        { filename: staged.filename, sha256: sha256Hex(content) },
        async () => {
          const { source, job, charge } = await services.dataSources.accept(caller, { filename: staged.filename, contentType: '', content });
          return {
            estimatedCostCredits: charge.estimatedCostCredits,
            columns: charge.columns,
            dataSource: { ctId: source.ctId, filename: source.filename, size: source.sizeBytes, created: source.createdAt },
            job: jobNode(job, services.links),
          };
        },
      );
    } finally {
      await discardAll(services.app.files, [staged]);
    }
  }
}
