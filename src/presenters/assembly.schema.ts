import { arr, bool, int, nullable, obj, str, strEnum } from '../lib/json-schema';
import { modelSchemaProperties } from './catalog.schema';
import { dollarsSchema } from './wallet.schema';

/** renderEstimate's body. */
export const estimateSchema = obj({
  estimate_id: str(),
  mode: strEnum('reuse', 'mixed'),
  reuse: arr(obj({ path: str(), ct_id: str(), label: nullable(str()), type: str() })),
  mint: arr(obj({ path: str(), label: nullable(str()), data_type: nullable(str()) })),
  problems: arr(obj({ path: str(), ct_id: nullable(str()), problem: str(), successor: nullable(str()), message: str() }, ['successor'])),
  model_credits: int(),
  mint_credits: int(),
  total_credits: int(),
  total_usd: str(),
  wallet: obj({ balance_credits: int(), can_pay: bool }),
  key: nullable(
    obj({
      scopes: arr(str()),
      can_spend: bool,
      spend_limit_credits: nullable(int()),
      spent_credits: int(),
      remaining_credits: nullable(int()),
      within_limit: bool,
    }),
  ),
});

/** renderBuiltModel's body (200): the model, then what finishing it did. */
export const builtModelSchema = obj({ ...modelSchemaProperties, model_url: str(), finalize_error: str() }, ['finalize_error']);

/** renderAssemblyJob's body (202): the contract's fields, then the dollar cost and the count of new components
 * the agent toolkit reads (clients.md). */
export const assemblyJobSchema = obj({
  job_ct_id: str(),
  job_url: str(),
  task_id: nullable(str()),
  data_source_ct_id: nullable(str()),
  mode: strEnum('mixed'),
  status: strEnum('processing'),
  estimated_cost_credits: int(),
  estimated_cost: dollarsSchema,
  new_components: int({ minimum: 0 }),
});
