import { JOB_KINDS } from '../../../src/entities/job.entity';
import { DomainError } from '../../../src/lib/errors';
import { parseJobFilters } from '../../../src/parsers/jobs.parser';

const refusal = (input: Parameters<typeof parseJobFilters>[0]) => {
  try {
    parseJobFilters(input);
  } catch (error) {
    return error instanceof DomainError ? { status: error.status, code: error.code, message: error.message, fields: error.fields } : error;
  }
  throw new Error('accepted');
};

describe('parseJobFilters', () => {
  it('leaves absent filters out', () => {
    expect(parseJobFilters({})).toEqual({});
  });

  it.each(JOB_KINDS)('accepts kind %s and a data source ct_id', (kind) => {
    expect(parseJobFilters({ kind, data_source: 'ds1' })).toEqual({ kind, dataSource: 'ds1' });
  });

  it.each([['rdf_sync'], ['ASSEMBLE'], [''], [['assemble']], [3]])('refuses kind %p with the contract 400', (kind) => {
    expect(refusal({ kind })).toEqual({
      status: 400,
      code: 'invalid_request',
      message: 'kind must be one of assemble, upload, generate_package, generate_app.',
      fields: { details: { kind: ['Unknown job kind.'] } },
    });
  });

  it.each([[['a', 'b']], [{ x: 1 }], [7]])('refuses data_source %p that is not one ct_id', (dataSource) => {
    expect(refusal({ data_source: dataSource })).toEqual({
      status: 400,
      code: 'invalid_request',
      message: 'data_source must be a ct_id.',
      fields: {},
    });
  });
});
