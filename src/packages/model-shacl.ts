import { componentParticles, type ElementParticle, type Particle } from './data-types';
import { turtleString } from './escape';
import type { PackageChild, PackageComponent, PackageModel, PackageUnits } from './package-model';
import { turtleIri, turtlePrefixLines } from './rdf-writer';

/** SHACL shapes (`dm-<ct_id>_shacl.ttl`) for a model's instance data as the service extracts it from a valid XML
 * instance (src/xml/instance-rdf.ts): the instance node `a sdc4:mc-<dm>` with `sdc4:hasDataItem` to its root
 * cluster, each cluster and component a node `a sdc4:mc-<ct_id>` holding its items by `sdc4:hasItems`, each simple
 * child element as the `sdc4:<element>` literal typed by its XML Schema datatype, a units element as a node linked by
 * `sdc4:has<Type>Units` (checked by its value). One node shape per model component: its fixed label, the cardinality, datatype, fixed value
 * and enumeration of each required element, the one-of of a choice; a component that carries an exceptional value
 * (whose placeholder stays an untyped string) needs only the EV. A cluster's items must be of the classes the model
 * places in it. */

const UNITS_PROPERTY: Record<string, string> = {
  'xdcount-units': 'sdc4:hasXdCountUnits',
  'xdquantity-units': 'sdc4:hasXdQuantityUnits',
  'xdfloat-units': 'sdc4:hasXdFloatUnits',
  'xddouble-units': 'sdc4:hasXdDoubleUnits',
};

/** XML Schema datatypes the instance graph types its literals with; xsd:string values are plain literals. */
const TYPED = /^xsd:(?!string$)[A-Za-z]+$/;

const mc = (ctId: string) => turtleIri(`sdc4:mc-${ctId}`);

function literal(text: string, type: string | null): string {
  return type && TYPED.test(type) ? `${turtleString(text)}^^${type}` : turtleString(text);
}

/** `[ a; b; c ]` on indented lines. */
function node(statements: string[], indent: string): string {
  return `[\n${statements.map((s) => `${indent}    ${s}`).join(' ;\n')}\n${indent}]`;
}

/** The property shape of a required element; null for what the instance graph does not state as a literal or node
 * the model constrains (structured reference-model parts such as an interval's bounds). */
function elementShape(p: ElementParticle, indent: string, units: PackageUnits | null): string | null {
  const path = UNITS_PROPERTY[p.element] ?? turtleIri(`sdc4:${p.element}`);
  const lines = [`sh:path ${path}`, `sh:minCount ${p.min}`];
  if (p.max !== 'unbounded') lines.push('sh:maxCount 1');
  if (units && p.type === `sdc4:mc-${units.ctId}`) {
    // The units node by its value, not its class: an imported package names its units component with its own ct_id.
    const value = ['sh:path sdc4:xdstring-value', 'sh:minCount 1', 'sh:maxCount 1'];
    if (units.value !== null) value.push(`sh:hasValue ${turtleString(units.value)}`);
    lines.push(`sh:node [ sh:property ${node(value, `${indent}    `)} ]`);
  } else if (p.type?.startsWith('sdc4:mc-')) lines.push(`sh:class ${turtleIri(p.type)}`);
  else if (p.type === null || !p.type.startsWith('xsd:')) return null;
  else if (p.fixed !== undefined) lines.push(`sh:hasValue ${literal(p.fixed, p.type)}`);
  else if (p.enumeration) lines.push(`sh:in ( ${p.enumeration.map((v) => literal(v, p.type)).join(' ')} )`);
  else if (TYPED.test(p.type)) lines.push(`sh:datatype ${p.type}`);
  else lines.push('sh:nodeKind sh:Literal');
  return node(lines, indent);
}

/** The shapes every valid, EV-free occurrence of a component meets: each required element, each choice as one-of. */
function valueShapes(particles: Particle[], indent: string, units: PackageUnits | null): string[] {
  const out: string[] = [];
  for (const p of particles) {
    if ('ref' in p || p.min === 0) continue;
    if ('choice' in p) {
      const options = p.choice.flatMap((option) => {
        const shape = elementShape(option, `${indent}        `, units);
        return shape ? [node([`sh:property ${shape}`], `${indent}    `)] : [];
      });
      if (options.length) out.push(`sh:or ( ${options.join(' ')} )`);
      continue;
    }
    if (p.element === 'label') continue;
    const shape = elementShape(p, indent, units);
    if (shape) out.push(`sh:property ${shape}`);
  }
  return out;
}

function labelShape(label: string, indent: string): string {
  return `sh:property ${node(['sh:path sdc4:label', 'sh:minCount 1', 'sh:maxCount 1', `sh:hasValue ${turtleString(label)}`], indent)}`;
}

function shape(ctId: string, label: string, statements: string[]): string {
  return (
    [
      `${turtleIri(`sdc4:mc-${ctId}-shape`)}`,
      ['    a sh:NodeShape', `    sh:targetClass ${mc(ctId)}`, `    rdfs:label ${turtleString(label)}`, ...statements.map((s) => `    ${s}`)].join(
        ' ;\n',
      ),
    ].join('\n') + ' .'
  );
}

function componentShape(pm: PackageModel, c: PackageComponent): string {
  const values = valueShapes(componentParticles(c, pm.createdDate), '    ', c.units);
  const statements = [labelShape(c.node.label, '    ')];
  if (values.length) {
    const withEv = node(['sh:property [ sh:path sdc4:hasExceptionalValue ; sh:minCount 1 ]'], '        ');
    statements.push(`sh:or ( ${node(values, '        ')} ${withEv} )`);
  }
  return shape(c.node.ctId, c.node.label, statements);
}

const childClass = (child: PackageChild) => mc(child.kind === 'cluster' ? child.cluster.node.ctId : child.component.node.ctId);

export function generateShacl(pm: PackageModel): string {
  const m = pm.model;
  const dm =
    [
      `${turtleIri(`sdc4:mc-${m.ctId}-shape`)}`,
      [
        '    a sh:NodeShape',
        `    sh:targetClass ${mc(m.ctId)}`,
        `    rdfs:label ${turtleString(m.title)}`,
        `    sh:property ${node(['sh:path sdc4:dm-label', 'sh:minCount 1', 'sh:maxCount 1', `sh:hasValue ${turtleString(m.title)}`], '    ')}`,
        `    sh:property ${node(['sh:path sdc4:dm-language', 'sh:minCount 1', 'sh:maxCount 1', `sh:hasValue ${literal(m.language, 'xsd:language')}`], '    ')}`,
        `    sh:property ${node(['sh:path sdc4:hasDataItem', 'sh:minCount 1', 'sh:maxCount 1', `sh:class ${mc(pm.root.node.ctId)}`], '    ')}`,
      ].join(' ;\n'),
    ].join('\n') + ' .';
  const clusters = pm.clusters.map((cl) => {
    const statements = [labelShape(cl.node.label, '    ')];
    if (cl.children.length) {
      const classes = cl.children.map((child) => `[ sh:class ${childClass(child)} ]`).join(' ');
      statements.push(`sh:property ${node(['sh:path sdc4:hasItems', `sh:maxCount ${cl.children.length}`, `sh:or ( ${classes} )`], '    ')}`);
    }
    return shape(cl.node.ctId, cl.node.label, statements);
  });
  const components = pm.components.map((c) => componentShape(pm, c));
  return [
    `# SHACL shapes for instance data of SDC4 data model ${m.ctId}`,
    ...turtlePrefixLines(),
    '',
    [dm, ...clusters, ...components].join('\n\n'),
    '',
  ].join('\n');
}

/** A package's SHACL file that states nothing: only comments such as the studio's "# Error generating SHACL content: …".
 * The generated shapes take its place wherever the model's files are served. */
export function isEmptyShacl(name: string, content: string | Buffer): boolean {
  if (!name.endsWith('_shacl.ttl')) return false;
  const text = typeof content === 'string' ? content : content.toString('utf8');
  return text.split(/\r?\n/).every((line) => line.trim() === '' || line.trimStart().startsWith('#'));
}
