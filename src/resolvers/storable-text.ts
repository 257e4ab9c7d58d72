import { GraphQLError, type ValidationRule } from 'graphql';
import { findUnstorableText, isUnstorable, unstorableTextMessage } from '../lib/text';

const unstorable = (field: string, nodes?: GraphQLError['nodes']) =>
  new GraphQLError(unstorableTextMessage(field), { nodes, extensions: { code: 'BAD_USER_INPUT' } });

/** graphql's lexer refuses a raw NUL or lone surrogate in a document but accepts the escape `\u0000` in a string
 * argument: this rule refuses that one (variables are checked by `unstorableRequestText`). */
export const storableTextRule: ValidationRule = (context) => ({
  StringValue(node) {
    if (isUnstorable(node.value)) context.reportError(unstorable('A string argument', [node]));
  },
});

/** NUL or a lone surrogate anywhere in a GraphQL request's JSON (query, variables, operation name), as a 400 error. */
export function unstorableRequestText(payload: object): GraphQLError | null {
  const field = findUnstorableText(payload);
  return field ? unstorable(field) : null;
}
