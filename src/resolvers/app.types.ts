import { Field, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { RdfSyncStatus, ValidationStatus } from '../entities/app-instance.entity';
import type { TriplestoreStatus } from '../presenters/upload.presenter';
import { RdfSyncStatusEnum, TriplestoreStatusEnum, ValidationStatusEnum } from './enums';

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
  @Field(() => TriplestoreStatusEnum) triplestoreStatus!: TriplestoreStatus;
  @Field() graphUri!: string;
}

@ObjectType('ValidationResult')
export class ValidationResultType {
  @Field() instanceId!: string;
  @Field() dmCtId!: string;
  @Field() dmLabel!: string;
  @Field(() => ValidationStatusEnum) validationStatus!: ValidationStatus;
  @Field() storageType!: string;
  @Field(() => [String], { description: 'line-<n> of each EV correction' }) autoCorrectedFields!: string[];
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'line-<n> → message, null when none' })
  validationErrors!: Record<string, string> | null;
  @Field(() => RdfSyncStatusEnum) rdfSyncStatus!: RdfSyncStatus;
}
