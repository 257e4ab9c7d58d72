import { DomainError } from '../../../src/lib/errors';
import { assemblyJobRequest, assemblyRequestFromJob, estimateId, MalformedRequest, parseAssemblyRequest } from '../../../src/parsers/assembly.parser';

const leaf = { label: 'L', data_type: 'XdString' };

/** The refusal a body gets, or null when it parses. */
function refusal(body: unknown): MalformedRequest | null {
  try {
    parseAssemblyRequest(body);
    return null;
  } catch (error) {
    if (error instanceof MalformedRequest) return error;
    throw error;
  }
}

describe('parseAssemblyRequest', () => {
  it.each([
    ['a component without ct_id, label or data_type', { title: 'T', data: { label: 'R', components: [{ ct_id: 'x' }, {}] } }, 'data.components[1]'],
    ['a component with a label but no data_type', { title: 'T', data: { label: 'R', components: [{ label: 'L' }] } }, 'data.components[0]'],
    [
      'an unknown data type',
      { title: 'T', data: { label: 'R', components: [{ label: 'L', data_type: 'XdMagic' }] } },
      'data.components[0].data_type',
    ],
    ['a cluster without a label', { title: 'T', data: { label: 'R', clusters: [{ components: [leaf] }] } }, 'data.clusters[0]'],
    [
      'a deep path',
      { title: 'T', data: { label: 'R', clusters: [{ label: 'A', components: [leaf, leaf, { data_type: 'XdString' }] }] } },
      'data.clusters[0].components[2]',
    ],
    ['a title over 255', { title: 'x'.repeat(256), data: { label: 'R', components: [leaf] } }, 'title'],
    ['a root label over 110', { title: 'T', data: { label: 'x'.repeat(111), components: [leaf] } }, 'data.label'],
    [
      'an unknown contextual name',
      { title: 'T', contextual: { weather: { ct_id: 'abc' } }, data: { label: 'R', components: [leaf] } },
      'contextual.weather',
    ],
    ['a contextual reference without ct_id', { title: 'T', contextual: { audit: {} }, data: { label: 'R', components: [leaf] } }, 'contextual.audit'],
    [
      'a contextual reference that is not an object',
      { title: 'T', contextual: { audit: 'abc' }, data: { label: 'R', components: [leaf] } },
      'contextual.audit',
    ],
    ['generate without publish', { title: 'T', publish: false, generate: true, data: { label: 'R', components: [leaf] } }, 'generate'],
    ['an estimate id that is not 12 hex characters', { title: 'T', estimate_id: 'XYZ', data: { label: 'R', components: [leaf] } }, 'estimate_id'],
  ])('refuses %s, naming the path', (_name, body, path) => {
    expect(refusal(body)?.details).toHaveProperty([path]);
  });

  it('refuses as the 400 malformed_tree body: status, code, message and details', () => {
    const error = refusal({ title: '', data: { label: 'R', components: [leaf, { label: 'L' }] } });
    expect(error).toBeInstanceOf(DomainError);
    expect({ status: error?.status, code: error?.code, message: error?.message, fields: error?.fields }).toEqual({
      status: 400,
      code: 'malformed_tree',
      message: 'Malformed assembly request: title: is required | data.components[1]: a component needs a ct_id, or a label and a data_type',
      fields: { details: { title: ['is required'], 'data.components[1]': ['a component needs a ct_id, or a label and a data_type'] } },
    });
  });

  it('drops generate when publish is false and generate was not sent', () => {
    expect(parseAssemblyRequest({ title: 'T', publish: false, data: { label: 'R', components: [leaf] } })).toMatchObject({
      publish: false,
      generate: false,
    });
  });

  it('pins the documented estimate id test vector', () => {
    const request = parseAssemblyRequest({
      title: 'Vitals',
      data: { label: 'Vitals Data', components: [{ label: 'Pulse', data_type: 'XdCount', units: 'beats/min' }] },
    });
    expect(estimateId(request)).toBe('4c9063786b33');
  });
});

describe('the request an assembly job stores', () => {
  const body = {
    title: 'Vitals',
    contextual: { audit: { ct_id: 'abc' } },
    data: { label: 'Vitals Data', clusters: [{ label: 'C', components: [leaf, { ct_id: 'def' }] }] },
  };

  it('reads back, through JSON, as the request that was parsed', () => {
    const request = parseAssemblyRequest(body);
    const stored = JSON.parse(JSON.stringify(assemblyJobRequest(request, 900)));
    expect(stored.estimatedCostCredits).toBe(900);
    expect(assemblyRequestFromJob(stored)).toEqual(request);
  });

  it('parses the raw body of a job queued before the parsed request was stored', () => {
    expect(assemblyRequestFromJob({ body })).toEqual(parseAssemblyRequest(body));
    expect(() => assemblyRequestFromJob({ body: { title: 'T' } })).toThrow(MalformedRequest);
  });
});
