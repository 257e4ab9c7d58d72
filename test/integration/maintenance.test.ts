import { MAINTENANCE } from '../../src/jobs/maintenance';
import { VaasPackages } from '../../src/services/vaas-packages';
import { startTestApp, type TestApp } from '../support/app';
import { makeUser } from '../support/factories';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({}, { workers: false });
});
afterAll(() => app.close());

const listed = (name: string) => MAINTENANCE.find((task) => task.name === name)!;

describe('expired VaaS packages', () => {
  it('outlive the next save and go with the listed sweep, row and file', async () => {
    const user = await makeUser(app.services);
    const packages = new VaasPackages(app.services.db, app.clock, app.services.links, app.services.app.storage, 60);
    const older = await packages.save(user.id, 'dm-maintenance', Buffer.from('older'));
    const [{ storage_path: olderPath }] = await app.services.db.query('SELECT storage_path FROM vaas_packages WHERE id = $1', [older.id]);
    app.clock.advance(61_000);
    const newer = await packages.save(user.id, 'dm-maintenance', Buffer.from('newer'));
    const ids = async () =>
      (await app.services.db.query('SELECT id FROM vaas_packages WHERE user_id = $1 ORDER BY created_at', [user.id])).map(
        (row: { id: string }) => row.id,
      );
    // Saving sweeps nothing: a request does not pay for the maintenance.
    expect(await ids()).toEqual([older.id, newer.id]);
    expect(await app.services.app.storage.exists('packages', olderPath)).toBe(true);

    expect(await listed('expired vaas packages').run(app.services)).toBe(1);
    expect(await ids()).toEqual([newer.id]);
    expect(await app.services.app.storage.exists('packages', olderPath)).toBe(false);
    await expect(packages.get(older.id, user.id)).rejects.toMatchObject({ status: 404 });
    expect((await packages.get(newer.id, user.id)).content.toString()).toBe('newer');
  });
});

describe('the maintenance list', () => {
  it('gives every task an owner and an interval, and runs the job sweeps on workers and the package sweep where VaaS is served', () => {
    for (const task of MAINTENANCE) {
      expect(task.owner).not.toBe('');
      expect(task.everyMs(app.services.settings)).toBeGreaterThanOrEqual(1000);
    }
    const runOn = (role: 'all' | 'gateway' | 'worker' | 'app') => MAINTENANCE.filter((task) => task.roles.includes(role)).map((task) => task.name);
    expect(runOn('worker')).toEqual(['lost jobs and their holds', 'rdf resync', 'job events retention', 'storage gc']);
    expect(runOn('gateway')).toEqual(['expired vaas packages']);
    expect(runOn('app')).toEqual(['rdf resync']);
    expect(runOn('all')).toHaveLength(MAINTENANCE.length);
  });
});
