import type { AssemblyRequest } from '../parsers/assembly.parser';
import { assemblyShape, type AssemblyShape } from './assembly-shape';
import { settle, type Outcome } from './outcome';
import { applyThreadSettings } from './thread-setup';

applyThreadSettings();

/** A large assembly tree's shape (its references, what it mints, its estimate id), off the event loop. */
export function shape(request: AssemblyRequest): Promise<Outcome<AssemblyShape>> {
  return settle(() => assemblyShape(request));
}
