import { evaluateXPathToBoolean } from 'fontoxpath';
import { childElements, slimdom, type XDocument, type XElement } from './dom';
import { positionOf } from './safe-parse';
import { localOf, type Assertion, type SchemaModel } from './schema-model';
import { nodePath, type LocatedError } from './node-path';
import type { SchemaProblem } from './xml-errors';

/** libxml2 implements XSD 1.0 only, so `xsd:assert` is taken out of the schema it compiles and evaluated here,
 * with fontoxpath (XPath 3.1, a superset of the XPath 2.0 that XSD 1.1 asks for), on every element whose type
 * is, or derives from, the asserting type. Node values are untyped (no PSVI): compare numbers with a cast. */
export function evaluateAssertions(document: XDocument, model: SchemaModel): LocatedError[] {
  const errors: LocatedError[] = [];
  const visit = (element: XElement, parentType: string | null) => {
    const typeKey = model.typeOf(element, parentType);
    if (!typeKey) return;
    for (const assertion of model.assertionsFor(typeKey)) {
      const failure = evaluate(assertion, element);
      if (failure !== null) {
        errors.push({ line: positionOf(element).line, message: failureMessage(element, assertion, failure), path: nodePath(element) });
      }
    }
    for (const child of childElements(element)) visit(child, typeKey);
  };
  if (document.documentElement) visit(document.documentElement, null);
  return errors;
}

/** Static errors (bad syntax, unknown prefixes or functions) found by a trial evaluation at compile time. */
export function checkAssertions(assertions: readonly Assertion[]): SchemaProblem[] {
  const scratchDocument = new slimdom.Document();
  const scratch = scratchDocument.appendChild(scratchDocument.createElement('scratch'));
  const problems: SchemaProblem[] = [];
  for (const assertion of assertions) {
    const failure = evaluate(assertion, scratch);
    if (failure && /XPST\d{4}/.test(failure)) {
      problems.push({ file: assertion.file, line: assertion.line, message: `xsd:assert '${assertion.test}' is not valid XPath: ${failure}` });
    }
  }
  return problems;
}

/** null when satisfied; otherwise why not (an XPath error also fails the assertion, as XSD 1.1 says). */
function evaluate(assertion: Assertion, element: XElement): string | null {
  try {
    const satisfied = evaluateXPathToBoolean(assertion.test, element, null, null, {
      namespaceResolver: (prefix: string) => (prefix === '' ? assertion.defaultElementNamespace : (assertion.namespaces[prefix] ?? null)),
    });
    return satisfied ? null : '';
  } catch (error) {
    const message = (error as Error).message;
    return /[A-Z]{4}\d{4}: [^.\n]*/.exec(message)?.[0] ?? message.split('\n')[0];
  }
}

function failureMessage(element: XElement, assertion: Assertion, failure: string): string {
  const reason = failure ? ` (${failure})` : '';
  return `Element '${element.nodeName}': The assertion '${assertion.test}' of type '${localOf(assertion.typeKey)}' is not satisfied${reason}.`;
}
