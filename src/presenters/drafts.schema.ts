import { DATA_TYPES, type DataType } from '../domain/model-tree';
import { TEMPORAL_PARTS, type TemporalPart } from '../parsers/drafts.parser';
import { arr, bool, dateTime, int, nullable, obj, str, strEnum, type Schema } from '../lib/json-schema';
import { linkedPageSchema } from './catalog.schema';

/** The drafts API's bodies (src/presenters/drafts.presenter.ts). */

const entryProperties = {
  id: int(),
  ct_id: str(),
  label: str(),
  description: str(),
  status: str(),
  published: bool,
  public: bool,
  project: str(),
  project_ct_id: str(),
  project_name: str(),
  pred_obj: arr(int()),
  created: dateTime,
  updated: dateTime,
};

/** renderComponentDraft's body; an xd-temporal adds its `allow_*` booleans. */
export const componentDraftSchema = obj(
  {
    ...entryProperties,
    type: str(),
    component_type: str(),
    units: nullable(str()),
    enums: str({ description: 'newline-joined' }),
    enum_descr: str({ description: '"value: description" lines' }),
    enumeration: arr(obj({ value: str(), description: nullable(str()) })),
    reference_ranges: arr(str()),
    ...(Object.fromEntries(TEMPORAL_PARTS.map((part) => [`allow_${part}`, bool])) as Record<`allow_${TemporalPart}`, typeof bool>),
  },
  TEMPORAL_PARTS.map((part) => `allow_${part}` as const),
);

/** A cluster's component children by type field (`xdstring`, …): each field only when it has some. */
const childrenByType = Object.fromEntries(DATA_TYPES.map((type) => [type.toLowerCase(), arr(str())])) as Record<
  Lowercase<DataType>,
  Schema<string[]>
>;

/** renderClusterDraft's body: children by type field (`xdstring`, …, `clusters`), and in order in `children`. */
export const clusterDraftSchema = obj(
  {
    ...entryProperties,
    type: strEnum('cluster'),
    clusters: arr(str()),
    ...childrenByType,
    children: arr(obj({ kind: strEnum('component', 'cluster'), ct_id: str(), type: str() })),
  },
  Object.keys(childrenByType) as Array<Lowercase<DataType>>,
);

/** renderModelDraft's body. */
export const modelDraftSchema = obj({
  id: int(),
  ct_id: str(),
  title: str(),
  description: str(),
  data: str(),
  dc_subject: str(),
  publisher: str(),
  source: str(),
  rights: str(),
  language: str(),
  published: bool,
  generated: bool,
  project: str(),
  project_name: str(),
  created: dateTime,
  updated: dateTime,
});

export const namespaceSchema = obj({ id: int(), abbrev: str(), uri: str() });

export const predicateSchema = obj({ id: int(), ns_prefix: str(), ns_abbrev: str(), class_name: str(), uri: str() });

export const predObjSchema = obj({ id: int(), predicate: int(), predicate_name: str(), object_uri: str(), po_name: nullable(str()), project: str() });

export const componentDraftPageSchema = linkedPageSchema(componentDraftSchema);
export const clusterDraftPageSchema = linkedPageSchema(clusterDraftSchema);
export const modelDraftPageSchema = linkedPageSchema(modelDraftSchema);
export const namespacePageSchema = linkedPageSchema(namespaceSchema);
export const predicatePageSchema = linkedPageSchema(predicateSchema);
export const predObjPageSchema = linkedPageSchema(predObjSchema);

/** renderUnitsDraft's body. */
export const unitsDraftSchema = obj({
  ...entryProperties,
  type: strEnum('units'),
  component_type: strEnum('Units'),
  enums: str({ description: 'newline-joined alternative symbols' }),
});
export const unitsDraftPageSchema = linkedPageSchema(unitsDraftSchema);
