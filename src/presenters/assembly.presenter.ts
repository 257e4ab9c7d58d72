import type { ApiKey } from '../entities/api-key.entity';
import type { Job } from '../entities/job.entity';
import { chargeHeaders, creditsToUsd } from '../money';
import { renderModel, type ModelView } from './catalog.presenter';
import type { Static } from '../lib/json-schema';
import type { assemblyJobSchema, builtModelSchema, estimateSchema } from './assembly.schema';

/** Assembly views (estimate, built model, queued job) and their REST renderings in the contract's snake_case. */

export interface ReuseView {
  path: string;
  ctId: string;
  label: string;
  type: string;
}

interface MintView {
  path: string;
  label: string;
  dataType: string;
}

export interface ProblemView {
  path: string;
  ctId: string;
  problem: 'unknown' | 'unpublished' | 'retired';
  message: string;
  /** Only a retired entry has one (or null); the others carry null. */
  successor: string | null;
}

interface EstimateKeyView {
  scopes: string[];
  canSpend: boolean;
  spendLimitCredits: number | null;
  spentCredits: number;
  remainingCredits: number | null;
  withinLimit: boolean;
}

/** How an assembly is built: inside the request (every leaf reused) or by a job (something to mint). */
export const ASSEMBLY_MODES = ['reuse', 'mixed'] as const;
export type AssemblyMode = (typeof ASSEMBLY_MODES)[number];

export interface EstimateView {
  estimateId: string;
  mode: AssemblyMode;
  reuse: ReuseView[];
  mint: MintView[];
  problems: ProblemView[];
  modelCredits: number;
  mintCredits: number;
  totalCredits: number;
  totalUsd: string;
  wallet: { balanceCredits: number; canPay: boolean };
  key: EstimateKeyView | null;
}

/** The reuse path's answer: the model built inside the request, as the catalog shows it, and what finishing it did. */
export interface BuiltModelView {
  mode: 'reuse';
  model: ModelView;
  published: boolean;
  generated: boolean;
  modelUrl: string;
  packageUrl: string | null;
  finalizeError: string | null;
  estimatedCostCredits: number;
  balanceCredits: number;
}

/** The mixed path's answer: the queued job. */
export interface AssemblyJobView {
  mode: 'mixed';
  jobCtId: string;
  jobUrl: string;
  taskId: string | null;
  dataSourceCtId: string;
  status: string;
  /** How many leaf components the run mints (clusters not counted): what the toolkit reports to its user. */
  newComponents: number;
  /** The price in dollars, as clients read it. */
  estimatedCost: string;
  estimatedCostCredits: number;
  balanceCredits: number;
  job: Job;
}

export type AssembleView = BuiltModelView | AssemblyJobView;

/** The priced plan as the estimate shows it, with what the wallet and the caller's key allow. */
/** An assembly priced and resolved against the catalog: the estimate less what depends on the caller. */
export type Pricing = Pick<EstimateView, 'estimateId' | 'mode' | 'reuse' | 'mint' | 'problems' | 'modelCredits' | 'mintCredits' | 'totalCredits'>;

export function estimateView(plan: Pricing, balanceCredits: number, key: ApiKey | null): EstimateView {
  const remaining = key && key.spendLimitCredits !== null ? key.spendLimitCredits - key.spentCredits - key.heldCredits : null;
  return {
    estimateId: plan.estimateId,
    mode: plan.mode,
    reuse: plan.reuse,
    mint: plan.mint,
    problems: plan.problems,
    modelCredits: plan.modelCredits,
    mintCredits: plan.mintCredits,
    totalCredits: plan.totalCredits,
    totalUsd: creditsToUsd(plan.totalCredits),
    wallet: { balanceCredits, canPay: balanceCredits >= plan.totalCredits },
    key: key
      ? {
          scopes: key.scopes,
          canSpend: key.scopes.includes('spend'),
          spendLimitCredits: key.spendLimitCredits,
          spentCredits: key.spentCredits,
          remainingCredits: remaining,
          withinLimit: remaining === null || plan.totalCredits <= remaining,
        }
      : null,
  };
}

/** A problem as the estimate and the 400/409 refusals list it; `successor` is a field of retired entries only. */
export function renderProblem(p: ProblemView) {
  return { path: p.path, ct_id: p.ctId, problem: p.problem, ...(p.problem === 'retired' ? { successor: p.successor } : {}), message: p.message };
}

export function renderEstimate(view: EstimateView): Static<typeof estimateSchema> {
  return {
    estimate_id: view.estimateId,
    mode: view.mode,
    reuse: view.reuse.map((r) => ({ path: r.path, ct_id: r.ctId, label: r.label, type: r.type })),
    mint: view.mint.map((m) => ({ path: m.path, label: m.label, data_type: m.dataType })),
    problems: view.problems.map(renderProblem),
    model_credits: view.modelCredits,
    mint_credits: view.mintCredits,
    total_credits: view.totalCredits,
    total_usd: view.totalUsd,
    wallet: { balance_credits: view.wallet.balanceCredits, can_pay: view.wallet.canPay },
    key: view.key
      ? {
          scopes: view.key.scopes,
          can_spend: view.key.canSpend,
          spend_limit_credits: view.key.spendLimitCredits,
          spent_credits: view.key.spentCredits,
          remaining_credits: view.key.remainingCredits,
          within_limit: view.key.withinLimit,
        }
      : null,
  };
}

/** The 200 body: the catalog's model fields, then what finishing it did (finalize_error only when it failed). */
export function renderBuiltModel(view: BuiltModelView): Static<typeof builtModelSchema> {
  return {
    ...renderModel(view.model),
    published: view.published,
    generated: view.generated,
    model_url: view.modelUrl,
    package_url: view.packageUrl,
    ...(view.finalizeError ? { finalize_error: view.finalizeError } : {}),
  };
}

/** The 202 body: the contract's fields, plus the dollar cost and the count of new components clients read. */
export function renderAssemblyJob(view: AssemblyJobView): Static<typeof assemblyJobSchema> {
  return {
    job_ct_id: view.jobCtId,
    job_url: view.jobUrl,
    task_id: view.taskId,
    data_source_ct_id: view.dataSourceCtId,
    mode: view.mode,
    // The clients' word for "submitted, not done" (clients.md); the job resource keeps queued/running/… .
    status: 'processing',
    estimated_cost_credits: view.estimatedCostCredits,
    estimated_cost: view.estimatedCost,
    new_components: view.newComponents,
  };
}

/** The cost headers of both answers. */
export function assembleHeaders(view: AssembleView): Record<string, string> {
  return chargeHeaders(view.estimatedCostCredits, view.balanceCredits);
}

/** The estimate's headers: what assemble would charge and the balance it would be charged against. */
export function estimateHeaders(view: EstimateView): Record<string, string> {
  return chargeHeaders(view.totalCredits, view.wallet.balanceCredits);
}
