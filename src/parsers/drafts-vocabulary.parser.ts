import { asBody, has, id, MAX_LABEL, optionalText, projectOf, requiredText } from './drafts-fields';
import { invalid } from './catalog.parser';

/** The semantic vocabulary of the drafts API (`/namespaces/`, `/predicates/`, `/pred-objs/`). */

const MAX_URI = 2000;

export interface NewNamespace {
  abbrev: string;
  uri: string;
}

export interface NewPredicate {
  /** A namespace id, or its abbreviation. */
  namespace: number | string;
  className: string;
}

export interface NewPredObj {
  predicateId: number;
  objectUri: string;
  poName: string | null;
  projectCtId: string | null;
}

const NCNAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

function absoluteUri(value: unknown, field: string): string {
  const uri = requiredText(value, field, MAX_URI);
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    throw invalid(field, `${field} must be an absolute URI.`);
  }
  if (!/^(https?|urn):$/.test(parsed.protocol) || /[\s<>"{}|\\^`]/.test(uri))
    throw invalid(field, `${field} must be an absolute http(s) or urn URI.`);
  return uri;
}

export function parseNewNamespace(raw: unknown): NewNamespace {
  const body = asBody(raw);
  const abbrev = requiredText(body.abbrev, 'abbrev', 40);
  if (!NCNAME.test(abbrev) || abbrev.includes('.')) throw invalid('abbrev', 'abbrev must be a prefix name (letters, digits, _ and -).');
  const uri = absoluteUri(body.uri, 'uri');
  if (!/[#/]$/.test(uri)) throw invalid('uri', 'uri must end with # or / (a predicate IRI is the uri followed by a class name).');
  return { abbrev, uri };
}

/** `ns_abbrev` is the namespace's id (what the enrichment scripts send) or its abbreviation. */
export function parseNewPredicate(raw: unknown): NewPredicate {
  const body = asBody(raw);
  const ns = body.ns_abbrev ?? body.namespace;
  const namespace = typeof ns === 'number' || (typeof ns === 'string' && /^\d+$/.test(ns)) ? id(ns, 'ns_abbrev') : requiredText(ns, 'ns_abbrev', 40);
  const className = requiredText(body.class_name, 'class_name', MAX_LABEL);
  if (!NCNAME.test(className)) throw invalid('class_name', 'class_name must be an XML name (it becomes an RDF predicate).');
  return { namespace, className };
}

export function parseNewPredObj(raw: unknown): NewPredObj {
  const body = asBody(raw);
  return {
    predicateId: id(body.predicate, 'predicate'),
    objectUri: absoluteUri(body.object_uri, 'object_uri'),
    poName: has(body, 'po_name') ? optionalText(body.po_name, 'po_name', MAX_LABEL) : null,
    projectCtId: projectOf(body),
  };
}
