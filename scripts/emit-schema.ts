import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { printSchema } from 'graphql';
import { buildGatewaySchema } from '../src/resolvers/schema';

/** Writes schema.graphql from the code (type-graphql); a test fails when the committed file is stale. */
async function main(): Promise<void> {
  const sdl = printSchema(await buildGatewaySchema());
  const target = path.resolve(__dirname, '../../schema.graphql');
  writeFileSync(target, `${sdl}\n`);
  process.stdout.write(`wrote ${target}\n`);
}

void main();
