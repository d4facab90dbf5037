/** The HTTP floor: node:http answering a fixed JSON body, nothing else. */
import { createServer } from 'node:http';

const BODY = JSON.stringify({ diseases: [{ Disease_Name: 'Diabetes Mellitus' }] });

const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) });
  res.end(BODY);
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : ''}`);
});
