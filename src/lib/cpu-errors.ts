import { AppGeneralError } from './app-api-errors';
import { DomainError } from './errors';

/** A CPU task ran past its time budget (CPU_TASK_BUDGET_MS); its thread was terminated and replaced. */
export class CpuBudgetExceeded extends Error {
  constructor(
    readonly task: string,
    readonly budgetMs: number,
  ) {
    super(`${task} exceeded its ${budgetMs} ms budget`);
    this.name = 'CpuBudgetExceeded';
  }
}

/** Every pool thread is busy and the queue (CPU_POOL_MAX_QUEUE) is full, or (`ownQueue`) this caller already
 * has CPU_POOL_MAX_QUEUE_PER_CALLER tasks waiting. */
export class CpuPoolBusy extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    readonly ownQueue = false,
  ) {
    super('The processing pool is full');
    this.name = 'CpuPoolBusy';
  }
}

/** An Interface B general-format error that also sends Retry-After (503 busy, 429 too many at once). */
export class RetryLaterError extends AppGeneralError {
  constructor(
    status: 429 | 503,
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(status, code, message, { request: [message] });
    this.name = 'RetryLaterError';
  }
}

const OWN_QUEUE_FULL = 'Too many of your tasks are waiting for a processing thread (CPU_POOL_MAX_QUEUE_PER_CALLER); retry shortly.';

/** The pool's refusals in Interface B's general format; any other error passes through unchanged. */
export function asAppApiError(error: unknown): unknown {
  if (error instanceof CpuBudgetExceeded) {
    return new AppGeneralError(
      422,
      'PROCESSING_BUDGET_EXCEEDED',
      `Processing took longer than the ${error.budgetMs} ms budget (CPU_TASK_BUDGET_MS).`,
      {
        request: [`${error.task} must finish within ${error.budgetMs} ms`],
      },
    );
  }
  if (error instanceof CpuPoolBusy && error.ownQueue) {
    return new RetryLaterError(429, 'TOO_MANY_REQUESTS', OWN_QUEUE_FULL, error.retryAfterSeconds);
  }
  if (error instanceof CpuPoolBusy) {
    return new RetryLaterError(503, 'SERVICE_BUSY', 'Every processing thread is busy; retry shortly.', error.retryAfterSeconds);
  }
  return error;
}

/** The pool's refusals in Interface A's `{error, error_type}` shape. */
export function asStudioError(error: unknown): unknown {
  if (error instanceof CpuBudgetExceeded) {
    return new DomainError(422, 'processing_budget_exceeded', `Processing took longer than the ${error.budgetMs} ms budget (CPU_TASK_BUDGET_MS).`, {
      budget_ms: error.budgetMs,
    });
  }
  if (error instanceof CpuPoolBusy && error.ownQueue) {
    return new DomainError(429, 'too_many_requests', OWN_QUEUE_FULL, { retry_after_seconds: error.retryAfterSeconds });
  }
  if (error instanceof CpuPoolBusy) {
    return new DomainError(429, 'service_busy', 'Every processing thread is busy; retry shortly.', { retry_after_seconds: error.retryAfterSeconds });
  }
  return error;
}
