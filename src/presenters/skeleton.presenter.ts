import type { Skeleton } from '../packages/skeleton';
import type { Static } from '../lib/json-schema';
import type { skeletonSchema } from './skeleton.schema';

/** The skeleton's JSON form (`Accept: application/json` on `/skeleton/`), in the toolkit's field names. */
export const renderSkeleton = (skeleton: Skeleton): Static<typeof skeletonSchema> => ({
  skeleton_xml: skeleton.xml,
  field_mapping: {
    ct_id: skeleton.fieldMapping.ctId,
    fields: skeleton.fieldMapping.fields.map((f) => ({
      placeholder: f.placeholder,
      ct_id: f.ctId,
      element_name: f.elementName,
      type: f.type,
      datatype: f.datatype,
      label: f.label,
      required: f.required,
    })),
  },
});
