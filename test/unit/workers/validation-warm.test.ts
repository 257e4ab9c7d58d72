import { warm } from '../../../src/workers/validation.task';
import { validateWithCorrection } from '../../../src/xml/ev';
import { compileSchema } from '../../../src/xml/schema';
import { offlineResolver, statePopulationXml, statePopulationXsd } from '../xml/fixtures';

/** The thread warm-up runs the validation path to the end and leaves nothing behind that changes a validation. */
describe('warm', () => {
  it('runs its rounds without an error', async () => {
    const outcome = await warm();

    expect(outcome).toEqual({ ok: true, value: expect.any(Number) });
    expect((outcome as { value: number }).value).toBeGreaterThan(0);
  });

  it('a validation after it answers as before it', async () => {
    const schema = await compileSchema(statePopulationXsd(), offlineResolver());
    const na = statePopulationXml().replace('<xdcount-value>23</xdcount-value>', '<xdcount-value>N/A</xdcount-value>');
    const answer = () => {
      const { correctedDocument: _tree, ...result } = validateWithCorrection(na, schema);
      return result;
    };
    const before = answer();

    await warm();

    expect(answer()).toEqual(before);
    expect(before.corrections).toHaveLength(1);
  });
});
