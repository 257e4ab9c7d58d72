/** The single artefacts of a model served by name, with their media type and file name in the package. */
const artifact = (contentType: string, suffix: string) => ({ contentType, file: (dmCtId: string) => `dm-${dmCtId}${suffix}` });

/** The artefacts generated on demand for any model, drafts included (served by src/rest-compat/studio/artefacts.routes.ts). */
const ARTIFACTS = {
  xsd: artifact('application/xml; charset=utf-8', '.xsd'),
  ttl: artifact('text/turtle; charset=utf-8', '.ttl'),
  skeleton: artifact('application/xml; charset=utf-8', '-skeleton.xml'),
  html: artifact('text/html; charset=utf-8', '.html'),
} as const;

/** The other files of a model's package, served one by one beside them (src/rest-compat/studio/artefacts.routes.ts). */
const PACKAGE_ARTIFACTS = {
  xml: artifact('application/xml; charset=utf-8', '.xml'),
  json: artifact('application/json; charset=utf-8', '-instance.json'),
  jsonld: artifact('application/ld+json; charset=utf-8', '.jsonld'),
  rdf: artifact('application/rdf+xml; charset=utf-8', '.rdf'),
  shacl: artifact('text/turtle; charset=utf-8', '_shacl.ttl'),
  gql: artifact('application/graphql; charset=utf-8', '.graphql'),
} as const;

export type ArtifactKind = keyof typeof ARTIFACTS;
export type PackageArtifactKind = keyof typeof PACKAGE_ARTIFACTS;

export const ALL_ARTIFACTS: Record<ArtifactKind | PackageArtifactKind, ReturnType<typeof artifact>> = { ...ARTIFACTS, ...PACKAGE_ARTIFACTS };
