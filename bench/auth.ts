import { load, printTable, startBenchService } from './support';
import { recordResults } from './results';
import { parseCreateKey } from '../src/parsers/keys.parser';

/** bench:auth — the cost of authentication: a key-authenticated GET of the key list beside /healthz, in the
 * same process, concurrency 16, 10 s each. */
export async function benchAuth(durationSeconds = 10): Promise<Record<string, unknown>> {
  const service = await startBenchService();
  try {
    const user = await service.services.users.create({ email: 'bench@example.org', password: 'bench-password' });
    const { key: plaintext } = await service.services.keys.create(user.id, parseCreateKey({ name: 'bench' }));
    const healthz = await load('GET /healthz (no auth)', { url: `${service.url}/healthz`, connections: 16, durationSeconds });
    const keyed = await load('GET /api/v1/auth/api-tokens/ (key)', {
      url: `${service.url}/api/v1/auth/api-tokens/`,
      headers: { authorization: `Token ${plaintext}` },
      connections: 16,
      durationSeconds,
    });
    const ratio = Number((healthz.requestsPerSecond / keyed.requestsPerSecond).toFixed(2));
    printTable([healthz, keyed]);
    console.log(`throughput ratio healthz / authenticated: ${ratio}`);
    return { healthz, authenticated: keyed, throughputRatio: ratio };
  } finally {
    await service.close();
  }
}

if (require.main === module) {
  benchAuth()
    .then((result) => recordResults('auth', result))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
