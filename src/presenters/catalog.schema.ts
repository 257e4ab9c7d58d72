import { anyJson, arr, bool, dateTime, int, nullable, obj, str, type JsonSchema } from '../lib/json-schema';

/** renderNode's body (children are nodes again); `repeated: true` marks a cluster shown by reference, as it is
 * expanded once, earlier in the tree. */
export const nodeSchema = obj(
  {
    type: str(),
    ct_id: str(),
    label: str(),
    name: str(),
    parent_cluster: nullable(str()),
    description: nullable(str()),
    units: nullable(str()),
    repeated: bool,
    children: arr({ type: 'object' }),
  },
  ['repeated'],
);

const modelSummaryProperties = {
  ct_id: str(),
  identifier: str(),
  title: str(),
  description: nullable(str()),
  project_name: str(),
  about: str(),
  created: dateTime,
  updated: dateTime,
};

/** renderModelSummary's body. */
export const modelSummarySchema = obj(modelSummaryProperties);

const modelProperties = {
  ...modelSummaryProperties,
  published: bool,
  generated: bool,
  package_url: nullable(str()),
  contextual: anyJson,
  artifacts: anyJson,
  components: arr(nodeSchema),
};

/** renderModel's body. */
export const modelSchema = obj(modelProperties);

/** renderModel's fields, for bodies that extend them (the assembly's 200). */
export const modelSchemaProperties = modelProperties;

/** renderComponent's body. */
export const componentSchema = obj({
  ct_id: str(),
  label: str(),
  description: nullable(str()),
  component_type: str(),
  project_name: str(),
  reuse_ref: str(),
  units: nullable(str()),
  pred_obj: arr(str()),
  status: str(),
  successor: nullable(str()),
});

/** renderDmgenComponent's body. */
export const dmgenComponentSchema = obj({
  ct_id: str(),
  label: str(),
  description: nullable(str()),
  type: str(),
  component_type: str(),
  published: bool,
  public: bool,
  project_name: str(),
  project_ct_id: str(),
  units: nullable(str()),
  created: dateTime,
  updated: dateTime,
});

/** renderCluster's body. */
export const clusterSchema = obj({
  ct_id: str(),
  label: str(),
  description: nullable(str()),
  project_name: str(),
  reuse_ref: str(),
  status: str(),
  successor: nullable(str()),
  child_count: int(),
});

/** renderPage's body around `item`. */
export const pageSchema = <S extends JsonSchema>(item: S) => obj({ count: int(), page: int(), page_size: int(), results: arr(item) });
/** renderLinkedPage's body around `item`. */
export const linkedPageSchema = <S extends JsonSchema>(item: S) =>
  obj({ count: int(), next: nullable(str()), previous: nullable(str()), results: arr(item) });

/** renderIndex's body. */
export const indexSchema = obj({
  endpoints: obj({ components: str(), clusters: str(), dms: str(), dm: str() }),
  data_types: anyJson,
  counts: obj({ components: int(), clusters: int(), dms: int() }),
  projects: arr(obj({ name: str(), is_library: bool, components: int(), clusters: int(), dms: int() })),
});
