import { Field, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@ObjectType('StoredFile', { description: 'A file stored by the application API (path relative to its storage directory).' })
export class StoredFileType {
  @Field() filename!: string;
  @Field() path!: string;
  @Field(() => Int) size!: number;
}

@ObjectType('SchemaFileError')
export class SchemaFileErrorType {
  @Field() filename!: string;
  @Field() error!: string;
}

@ObjectType('SchemaUploadResult')
export class SchemaUploadResultType {
  @Field(() => [StoredFileType]) storedFiles!: StoredFileType[];
  @Field(() => [SchemaFileErrorType]) errors!: SchemaFileErrorType[];
}

@ObjectType('RdfUploadResult')
export class RdfUploadResultType extends StoredFileType {
  @Field({ description: 'synced, disabled (no triplestore configured) or failed (the file is kept).' }) triplestoreStatus!: string;
  @Field() graphUri!: string;
}

@ObjectType('ValidationResult')
export class ValidationResultType {
  @Field() instanceId!: string;
  @Field() dmCtId!: string;
  @Field() dmLabel!: string;
  @Field({ description: 'valid or valid_with_ev' }) validationStatus!: string;
  @Field() storageType!: string;
  @Field(() => [String], { description: 'line-<n> of each EV correction' }) autoCorrectedFields!: string[];
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'line-<n> → message, null when none' })
  validationErrors!: Record<string, string> | null;
  @Field({ description: 'disabled, pending, synced or failed' }) rdfSyncStatus!: string;
}
