import http from 'node:http';

/** The baseline of issue 19: bare Node `http` answering a constant JSON, in a process of its own beside the
 * service, measured by the same client in the same run. Sends its port to the parent once listening. */
const BODY = JSON.stringify({ status: 'ok' });

const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(BODY) });
  res.end(BODY);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('disconnect', () => process.exit(0));
