import { GraphQLUpload, type FileUpload } from 'graphql-upload-ts';
import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { discardAll, readIncoming } from '../storage/incoming-file';
import { parseGenerationRequest, type GenerationKind } from '../parsers/generation.parser';
import type { GenerationView } from '../presenters/generation.presenter';
import type { JobView } from '../presenters/job.presenter';
import type { Caller } from '../services/auth.service';
import { CurrentCaller, Requires, type GraphQLContext } from './context';
import { stage } from './uploads';
import { DataSourceUploadType, GenerateResult } from './generation.types';

async function generate(
  { services }: GraphQLContext,
  caller: Caller,
  kind: GenerationKind,
  dmCtId: string,
  profile: string | null | undefined,
  runAsync: boolean | null | undefined,
): Promise<GenerationView | JobView> {
  const request = parseGenerationRequest(kind, dmCtId, profile);
  if (runAsync) return services.jobs.view(await services.generation.enqueue(caller, request));
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
  ): Promise<GenerationView | JobView> {
    return generate(ctx, caller, 'generate_package', dmCtId, null, runAsync);
  }

  @Requires('spend')
  @Mutation(() => GenerateResult, { description: 'Generates the application download of a published model; charges APP_DOWNLOAD_CREDITS.' })
  async generateApp(
    @Arg('dmCtId') dmCtId: string,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: GraphQLContext,
    @Arg('profile', () => String, { nullable: true, description: 'os (default) or enterprise' }) profile?: string | null,
    @Arg('async', () => Boolean, { nullable: true, defaultValue: false }) runAsync?: boolean | null,
  ): Promise<GenerationView | JobView> {
    return generate(ctx, caller, 'generate_app', dmCtId, profile, runAsync);
  }

  @Requires('build')
  @Mutation(() => DataSourceUploadType, {
    description: 'Uploads a CSV (GraphQL multipart request; send Apollo-Require-Preflight: true); an upload job proposes a draft model.',
  })
  async uploadDataSource(
    @Arg('file', () => GraphQLUpload) file: Promise<FileUpload>,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: GraphQLContext,
  ): Promise<DataSourceUploadType> {
    const { services } = ctx;
    const staged = await stage(ctx, file, 'file');
    let accepted;
    try {
      accepted = await services.dataSources.accept(caller, { filename: staged.filename, contentType: '', content: await readIncoming(staged) });
    } finally {
      await discardAll(services.app.files, [staged]);
    }
    const { source, job } = accepted;
    return {
      dataSource: { ctId: source.ctId, filename: source.filename, size: source.sizeBytes, created: source.createdAt },
      job: await services.jobs.view(job),
    };
  }
}
