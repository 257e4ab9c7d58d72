/** The single artefacts of a model served by name, with their media type and file extension. */
export const ARTIFACTS = {
  xsd: { contentType: 'application/xml; charset=utf-8', extension: 'xsd' },
  ttl: { contentType: 'text/turtle; charset=utf-8', extension: 'ttl' },
  skeleton: { contentType: 'application/xml; charset=utf-8', extension: 'xml' },
  html: { contentType: 'text/html; charset=utf-8', extension: 'html' },
} as const;

export type ArtifactKind = keyof typeof ARTIFACTS;
