import { arr, bool, int, nullable, obj, str, type JsonSchema } from '../lib/json-schema';
import { DRAFT_DATA_TYPES, TEMPORAL_PARTS } from './drafts.parser';

/** The drafts API's request bodies as src/parsers/drafts.parser.ts reads them (clients.md, "Drafts"). */

const text = nullable(str());
/** Newline-joined text, or a list. */
const lines: JsonSchema = { anyOf: [str(), arr(str()), { type: 'null' }] };
const ids: JsonSchema = nullable(arr({ anyOf: [int({ minimum: 1 }), str({ pattern: '^\\d+$' })] }));
const ctIds = nullable(arr(str()));

/** parseComponentFields' fields (a PATCH sends any of them). */
const componentFieldProperties: Record<string, JsonSchema> = {
  label: str(),
  description: text,
  units: text,
  enums: lines,
  enum_descr: { anyOf: [str(), { type: 'object', additionalProperties: str() }, { type: 'null' }], description: '"value: description" lines' },
  pred_obj: ids,
  reference_ranges: ctIds,
  ...Object.fromEntries(TEMPORAL_PARTS.map((part) => [`allow_${part}`, { ...bool, description: 'xd-temporals only' }])),
};

export const componentUpdateBodySchema = obj(componentFieldProperties, Object.keys(componentFieldProperties));

/** parseNewComponent's body: a label, the project (ct_id; default: your default project) and the fields above. */
export const newComponentBodySchema = obj(
  { ...componentFieldProperties, project: text, public: nullable(bool) },
  Object.keys(componentFieldProperties)
    .filter((name) => name !== 'label')
    .concat('project', 'public'),
);

const clusterFieldProperties: Record<string, JsonSchema> = { label: str(), description: text, pred_obj: ids };

export const clusterUpdateBodySchema = obj(clusterFieldProperties, Object.keys(clusterFieldProperties));

/** The child fields of parseNewCluster: one list of ct_ids per component type (`xdstring`, …), `components`
 * (any type) and `clusters`, in body order. */
const childFields = Object.fromEntries([...DRAFT_DATA_TYPES.map((t) => t.toLowerCase()), 'components', 'clusters'].map((f) => [f, ctIds]));

export const newClusterBodySchema = obj({ ...clusterFieldProperties, project: text, ...childFields }, [
  'description',
  'pred_obj',
  'project',
  ...Object.keys(childFields),
]);

const modelFieldProperties: Record<string, JsonSchema> = {
  title: str(),
  description: text,
  dc_subject: text,
  publisher: text,
  source: text,
  rights: text,
  language: { ...text, description: 'A BCP 47 tag such as en-US.' },
};

export const modelUpdateBodySchema = obj(modelFieldProperties, Object.keys(modelFieldProperties));

/** parseNewModel's body: `data` names the root cluster by ct_id or by its numeric id. */
export const newModelBodySchema = obj(
  { ...modelFieldProperties, project: text, data: { anyOf: [str(), int({ minimum: 1 })] } },
  Object.keys(modelFieldProperties)
    .filter((name) => name !== 'title')
    .concat('project'),
);

export const newNamespaceBodySchema = obj({ abbrev: str(), uri: str({ format: 'uri' }) });

/** `ns_abbrev`: the namespace's id or its abbreviation (`namespace` is accepted for it too). */
export const newPredicateBodySchema = obj({ ns_abbrev: { anyOf: [int({ minimum: 1 }), str()] }, class_name: str() });

export const newPredObjBodySchema = obj(
  { predicate: { anyOf: [int({ minimum: 1 }), str({ pattern: '^\\d+$' })] }, object_uri: str({ format: 'uri' }), po_name: text, project: text },
  ['po_name', 'project'],
);

/** parseUnitsFields' fields: the unit as `label`, alternative symbols as `enums`. */
const unitsFieldProperties: Record<string, JsonSchema> = {
  label: str({ description: 'The unit, e.g. kg.' }),
  description: text,
  enums: lines,
  pred_obj: ids,
};

export const unitsUpdateBodySchema = obj(unitsFieldProperties, Object.keys(unitsFieldProperties));

/** parseNewUnits' body: a label, the project (ct_id; default: your default project) and the fields above. */
export const newUnitsBodySchema = obj({ ...unitsFieldProperties, project: text, public: nullable(bool) }, [
  'description',
  'enums',
  'pred_obj',
  'project',
  'public',
]);
