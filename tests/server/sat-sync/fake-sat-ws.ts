// A local stand-in for SAT's Descarga Masiva web service, answering with the SOAP samples of
// tests/fixtures/sat-ws/descarga-masiva (and a package from tests/fixtures/cfdi/zip): authenticate, query
// (issued or received by SOAPAction), verify (in progress as many times as asked, then finished with the
// sample's two packages, or the sample's "no information" answer) and download. Records every request.
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const dir = fileURLToPath(new URL('../../fixtures/sat-ws/descarga-masiva/', import.meta.url));
const sample = (name: string) => readFileSync(dir + name, 'utf8');
export const PACKAGE_ZIP = readFileSync(new URL('../../fixtures/cfdi/zip/descarga-masiva-cfdi-package-mixed.zip', import.meta.url));

export interface FakeSatRequest {
  path: string;
  soapAction: string;
  authorization: string;
  body: string;
}

export interface FakeSatWs {
  url: string;
  requests: FakeSatRequest[];
  /** Verify answers 'in progress' this many times before the finished answer. */
  inProgress: number;
  /** Verify answers SAT's "no information" (5004) instead of packages. */
  empty: boolean;
  close(): Promise<void>;
}

function token(): string {
  const now = new Date();
  const expires = new Date(now.getTime() + 5 * 60_000);
  return sample('authenticate-response-with-token.xml')
    .replace(/<u:Created>[^<]+<\/u:Created>/, `<u:Created>${now.toISOString()}</u:Created>`)
    .replace(/<u:Expires>[^<]+<\/u:Expires>/, `<u:Expires>${expires.toISOString()}</u:Expires>`);
}

const inProgress = () =>
  sample('verify-response-2-packages.xml')
    .replace('EstadoSolicitud="3"', 'EstadoSolicitud="2"')
    .replace(/\s*<IdsPaquetes>[^<]+<\/IdsPaquetes>/g, '');

const download = () => sample('download-response-with-package.xml').replace(/<Paquete>[^<]*<\/Paquete>/, `<Paquete>${PACKAGE_ZIP.toString('base64')}</Paquete>`);

export async function startFakeSatWs(): Promise<FakeSatWs> {
  const fake: FakeSatWs = { url: '', requests: [], inProgress: 0, empty: false, close: async () => undefined };
  let verifies = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const soapAction = String(req.headers.soapaction ?? '');
      fake.requests.push({ path: req.url ?? '', soapAction, authorization: String(req.headers.authorization ?? ''), body: Buffer.concat(chunks).toString('utf8') });
      let answer: string | null = null;
      if (req.url === '/Autenticacion/Autenticacion.svc') answer = token();
      else if (req.url === '/SolicitaDescargaService.svc') {
        answer = soapAction.endsWith('SolicitaDescargaRecibidos') ? sample('query-response-received.xml') : sample('query-response-issued.xml');
      } else if (req.url === '/VerificaSolicitudDescargaService.svc') {
        verifies++;
        answer = fake.empty ? sample('verify-response-0-packages.xml') : verifies <= fake.inProgress ? inProgress() : sample('verify-response-2-packages.xml');
      } else if (req.url === '/DescargaMasivaService.svc') answer = download();
      res.writeHead(answer ? 200 : 404, { 'content-type': 'text/xml; charset=utf-8' });
      res.end(answer ?? '');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((ok) => server.close(() => ok()));
  return fake;
}
