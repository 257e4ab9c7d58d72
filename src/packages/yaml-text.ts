/** A YAML emitter for plain configuration data (maps, lists, strings, numbers, booleans). Every string is
 * written as a JSON string, which YAML reads as the same double-quoted scalar: no quoting rule to get wrong. */

export type YamlValue = string | number | boolean | YamlValue[] | { [key: string]: YamlValue };

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

function key(name: string): string {
  return PLAIN_KEY.test(name) ? name : JSON.stringify(name);
}

function scalar(value: string | number | boolean): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function isEmpty(value: YamlValue): boolean {
  return Array.isArray(value) ? value.length === 0 : typeof value === 'object' && Object.keys(value).length === 0;
}

function lines(value: YamlValue, pad: string): string[] {
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      if (typeof item !== 'object' || isEmpty(item))
        return [`${pad}- ${typeof item === 'object' ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)}`];
      const [first, ...rest] = lines(item, `${pad}  `);
      return [`${pad}- ${first.slice(pad.length + 2)}`, ...rest];
    });
  }
  if (typeof value === 'object') {
    return Object.entries(value).flatMap(([name, item]) => {
      if (typeof item !== 'object') return [`${pad}${key(name)}: ${scalar(item)}`];
      if (isEmpty(item)) return [`${pad}${key(name)}: ${Array.isArray(item) ? '[]' : '{}'}`];
      return [`${pad}${key(name)}:`, ...lines(item, `${pad}  `)];
    });
  }
  return [`${pad}${scalar(value)}`];
}

export function toYaml(value: YamlValue, header: string[] = []): string {
  return [...header.map((line) => `# ${line}`), ...lines(value, ''), ''].join('\n');
}
