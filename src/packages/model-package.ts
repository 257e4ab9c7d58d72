import type { DataModelDocument } from '../domain/model-tree';
import { contextualElement, contextualValuePaths } from './contextual';
import type { ContextualComponent } from './contextual-slots';
import { generateGraphqlSdl } from './model-graphql';
import { generateHtml } from './model-html';
import { generateInstanceXml } from './model-instance';
import { generateInstanceJson } from './model-json';
import { generateJsonLd } from './model-jsonld';
import { generateTurtle, modelTriples } from './model-rdf';
import { generateShacl } from './model-shacl';
import { generateReadme } from './model-readme';
import { generateXsd } from './model-xsd';
import { buildPackageModel, type PackageModel } from './package-model';
import { buildSkeleton, componentElement, componentValueSpecs, type Skeleton, type SkeletonComponent } from './skeleton';
import { toRdfXml } from './rdf-writer';
import type { PackageFile } from './zip-files';

/** The SDC4 model package: every artefact of a data model, generated from its tree, the same bytes for the
 * same model. */

export function packageFileNames(ctId: string): string[] {
  const base = `dm-${ctId}`;
  return [
    `${base}.xsd`,
    `${base}.xml`,
    `${base}.html`,
    `${base}.ttl`,
    `${base}.rdf`,
    `${base}_shacl.ttl`,
    `${base}.jsonld`,
    `${base}-instance.json`,
    `${base}.graphql`,
    'README.md',
  ];
}

export function generateModelFiles(model: DataModelDocument, contextual: ContextualComponent[] = []): PackageFile[] {
  const pm = buildPackageModel(model, contextual);
  const names = packageFileNames(pm.model.ctId);
  const [xsd, xml, html, ttl, rdf, shacl, jsonld, json, gql, readme] = names;
  const triples = modelTriples(pm);
  return [
    { name: xsd, content: generateXsd(pm) },
    { name: xml, content: generateInstanceXml(pm) },
    { name: html, content: generateHtml(pm, names) },
    { name: ttl, content: generateTurtle(pm, triples) },
    { name: rdf, content: toRdfXml(triples) },
    { name: shacl, content: generateShacl(pm) },
    { name: jsonld, content: generateJsonLd(pm) },
    { name: json, content: generateInstanceJson(pm) },
    { name: gql, content: generateGraphqlSdl(pm) },
    { name: readme, content: generateReadme(pm, names) },
  ];
}

/** Every component of the model whose element carries values, as the skeleton finds it in an instance. */
function skeletonComponents(pm: PackageModel): SkeletonComponent[] {
  const tree = pm.components.map((c) => ({
    ctId: c.node.ctId,
    label: c.node.label,
    type: c.node.dataType,
    element: componentElement(c.node.ctId),
    values: componentValueSpecs(c.node.dataType),
    required: true,
  }));
  const contextual = pm.contextual.flatMap((c) => {
    const element = contextualElement(c);
    if (!element) return [];
    return [{ ctId: c.ctId, label: c.label, type: c.componentType, element, values: contextualValuePaths(c), required: false }];
  });
  return [...tree, ...contextual];
}

/** The skeleton of a model: its example instance, or `instanceXml` (an imported package's own), with placeholders. */
export function generateSkeleton(model: DataModelDocument, contextual: ContextualComponent[] = [], instanceXml?: string): Skeleton {
  const pm = buildPackageModel(model, contextual);
  return buildSkeleton(instanceXml ?? generateInstanceXml(pm), pm.model.ctId, skeletonComponents(pm));
}
