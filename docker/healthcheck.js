// The container's healthcheck (Dockerfile HEALTHCHECK, compose): healthy once /readyz answers 200 (database up, migrations applied).
const port = process.env.PORT || '4000';
fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(4000) }).then(
  (response) => process.exit(response.ok ? 0 : 1),
  () => process.exit(1),
);
