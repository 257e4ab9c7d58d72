import { renderProblem } from '../../../src/presenters/assembly.presenter';

describe('renderProblem', () => {
  it('gives a retired entry its successor before the message, and the others no successor field', () => {
    const retired = renderProblem({ path: 'data.components[0]', ctId: 'abc', problem: 'retired', message: 'm', successor: null });
    const unknown = renderProblem({ path: 'data.components[1]', ctId: 'def', problem: 'unknown', message: 'n', successor: null });
    expect(JSON.stringify(retired)).toBe('{"path":"data.components[0]","ct_id":"abc","problem":"retired","successor":null,"message":"m"}');
    expect(JSON.stringify(unknown)).toBe('{"path":"data.components[1]","ct_id":"def","problem":"unknown","message":"n"}');
  });
});
