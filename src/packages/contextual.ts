import { componentParticles, el, type Particle } from './data-types';
import { instanceElementName, type ContextualComponent } from './contextual-slots';
import { SDC4_NS, type PackageComponent } from './package-model';

/** How a model's contextual components enter its schema and instances: each is a restriction of the
 * reference-model type its slot takes in `DMType`, placed at that slot's position of the model's sequence (a local
 * element for `subject`, `provider`, `protocol`, `workflow`, `acs`, `attestation`; a member of the `sdc4:Audit` or
 * `sdc4:Participation` substitution group for those two; `party`, which DMType has no place for, is declared as a
 * member of `sdc4:Party`). */

/** The reference-model type a contextual component restricts. */
export const rmTypeOf = (c: ContextualComponent) => `${c.componentType}Type`;

const xdString = (element: string, label: string, value: string) =>
  el(element, 'sdc4:XdStringType', 1, {
    sample: {
      children: [
        { element: 'label', text: label, fixed: true },
        { element: 'xdstring-value', text: value },
      ],
    },
  });

/** The sequence of a contextual component's restriction, each element with the example value an instance carries. */
export function contextualParticles(c: ContextualComponent, createdIso: string, createdDate: string): Particle[] {
  const label = el('label', 'xsd:string', 1, { fixed: c.label, sample: { text: c.label } });
  switch (c.componentType) {
    case 'Party':
      return [label, el('party-name', 'xsd:string', 1, { sample: { text: 'Example party' } })];
    case 'Audit':
      return [label, xdString('system-id', 'System', 'example-system'), el('timestamp', 'xsd:dateTime', 1, { sample: { text: createdIso } })];
    case 'Attestation':
      return [
        label,
        el('committed', 'xsd:dateTime', 1, { sample: { text: createdIso } }),
        el('pending', 'xsd:boolean', 1, { sample: { text: 'false' } }),
      ];
    case 'Participation':
      return [label, xdString('function', 'Function', 'observer'), el('start', 'xsd:dateTime', 1, { sample: { text: createdIso } })];
    default:
      return componentParticles(asComponent(c), createdDate);
  }
}

/** An Xd contextual component (protocol, workflow, acs) is generated like any component of its type. */
function asComponent(c: ContextualComponent): PackageComponent {
  const dataType = c.componentType === 'XdLink' ? 'XdLink' : 'XdString';
  return {
    node: { kind: 'component', ctId: c.ctId, label: c.label, dataType, description: c.description, units: null },
    adapterCtId: '',
    units: null,
  };
}

/** The value positions a skeleton turns into placeholders, as element paths under the contextual element. */
export function contextualValuePaths(c: ContextualComponent): Array<{ path: string[]; datatype: string }> {
  switch (c.componentType) {
    case 'Party':
      return [{ path: ['party-name'], datatype: 'xsd:string' }];
    case 'Audit':
      return [
        { path: ['system-id', 'xdstring-value'], datatype: 'xsd:string' },
        { path: ['timestamp'], datatype: 'xsd:dateTime' },
      ];
    case 'Attestation':
      return [
        { path: ['committed'], datatype: 'xsd:dateTime' },
        { path: ['pending'], datatype: 'xsd:boolean' },
      ];
    case 'Participation':
      return [
        { path: ['function', 'xdstring-value'], datatype: 'xsd:string' },
        { path: ['start'], datatype: 'xsd:dateTime' },
      ];
    case 'XdLink':
      return [{ path: ['link'], datatype: 'xsd:anyURI' }];
    default:
      return [{ path: ['xdstring-value'], datatype: 'xsd:string' }];
  }
}

/** The element of a used slot as a skeleton finds it (unqualified local element, or the model's `sdc4:ms-<ct_id>`). */
export function contextualElement(c: ContextualComponent): { localName: string; namespace: string | null } | null {
  const name = instanceElementName(c);
  if (!name) return null;
  return name.startsWith('sdc4:') ? { localName: name.slice('sdc4:'.length), namespace: SDC4_NS } : { localName: name, namespace: null };
}
