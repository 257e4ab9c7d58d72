import { DataFactory } from 'n3';

// n3 types DataFactory's constructors as methods; bound once here, modules can import them as plain functions.
export const namedNode = DataFactory.namedNode.bind(DataFactory);
export const blankNode = DataFactory.blankNode.bind(DataFactory);
export const literal = DataFactory.literal.bind(DataFactory);
export const quad = DataFactory.quad.bind(DataFactory);
