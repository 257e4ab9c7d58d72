import { arr, bool, obj, str } from '../lib/json-schema';

/** renderSkeleton's body. */
export const skeletonSchema = obj({
  skeleton_xml: str(),
  field_mapping: obj({
    ct_id: str(),
    fields: arr(obj({ placeholder: str(), ct_id: str(), element_name: str(), type: str(), datatype: str(), label: str(), required: bool })),
  }),
});
