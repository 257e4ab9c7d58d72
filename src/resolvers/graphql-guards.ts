import type { NextFunction, Request, Response } from 'express';
import type { GraphQLError, GraphQLFormattedError } from 'graphql';
import { normaliseError } from '../lib/errors';
import { requestProblem, type QueryLimits } from './limits';

type FormatError = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

/** Refuses, before Apollo parses anything, a document or variables nested past what graphql's recursive parser
 * and coercion survive; the answer is a GraphQL error body with status 400. */
export function graphqlRequestGuard(limits: QueryLimits, formatError: FormatError) {
  return (req: Request, res: Response, next: NextFunction) => {
    const body: unknown = req.method === 'GET' ? req.query : req.body;
    for (const payload of (Array.isArray(body) ? body : [body]) as unknown[]) {
      const problem: GraphQLError | null = payload && typeof payload === 'object' ? requestProblem(payload, limits) : null;
      if (problem) {
        res.status(400).json({ errors: [formatError(problem.toJSON(), problem)] });
        return;
      }
    }
    next();
  };
}

const TRANSPORT_CODES: Record<number, [string, string]> = {
  400: ['BAD_REQUEST', 'Malformed request body: send JSON.'],
  413: ['PAYLOAD_TOO_LARGE', 'Request body too large.'],
  415: ['UNSUPPORTED_MEDIA_TYPE', 'Unsupported request body encoding.'],
};

/** Body-reading failures on /graphql (oversize, unreadable, not UTF-8) in the GraphQL error shape instead of
 * Express's HTML page. */
export function graphqlTransportErrors(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  const normalised = normaliseError(error);
  const refused = normalised.kind === 'domain' ? normalised.error : normalised.kind === 'request' ? normalised.fault : null;
  if (!refused || refused.status < 400 || refused.status >= 500) return next(error);
  const [code, fallback] = TRANSPORT_CODES[refused.status] ?? ['BAD_REQUEST', 'Bad request.'];
  const message = normalised.kind === 'domain' || refused.status === 415 ? refused.message : fallback;
  res.status(refused.status).json({ errors: [{ message, extensions: { code } }] });
}
