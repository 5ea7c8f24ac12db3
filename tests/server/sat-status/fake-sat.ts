// A local stand-in for SAT's ConsultaCFDIService: it checks the SOAP request the way SAT's WCF endpoint
// needs it (POST, text/xml, SOAPAction, c:Consulta/c:expresionImpresa) and answers from the fixture
// sample (fixtures/sat-ws/estado-cfdi), with the CFDI's state chosen per UUID (the expression's id=).
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const FIXTURES = fileURLToPath(new URL('../../fixtures/sat-ws/estado-cfdi', import.meta.url));
/** SAT's answer for a Vigente CFDI, byte for byte from phpcfdi's test suite. */
export const VIGENTE_RESPONSE = readFileSync(join(FIXTURES, 'consulta-response-vigente-cancelable-con-aceptacion.xml'), 'utf8');
export const REQUEST_SAMPLE = readFileSync(join(FIXTURES, 'consulta-request.xml'), 'utf8');

/** The sample's ConsultaResult with other children: the envelope and namespaces stay SAT's. */
function withResult(fields: Record<string, string>): string {
  const children = Object.entries(fields)
    .map(([k, v]) => `<a:${k}>${v}</a:${k}>`)
    .join('\n                ');
  return VIGENTE_RESPONSE.replace(/(<ConsultaResult[^>]*>)[\s\S]*?(<\/ConsultaResult>)/, `$1\n                ${children}\n            $2`);
}

export const CANCELADO_RESPONSE = withResult({
  CodigoEstatus: 'S - Comprobante obtenido satisfactoriamente.',
  EsCancelable: 'Cancelable sin aceptación',
  Estado: 'Cancelado',
  EstatusCancelacion: 'Cancelado sin aceptación',
  ValidacionEFOS: '200',
});
export const NO_ENCONTRADO_RESPONSE = withResult({
  CodigoEstatus: 'N - 602: Comprobante no encontrado.',
  EsCancelable: '',
  Estado: 'No Encontrado',
  EstatusCancelacion: '',
  ValidacionEFOS: '',
});
const FAULT_500 = VIGENTE_RESPONSE.replace(
  /<ConsultaResponse[\s\S]*<\/ConsultaResponse>/,
  '<s:Fault><faultcode>s:Server</faultcode><faultstring xml:lang="es-MX">Error interno</faultstring></s:Fault>',
);

export type FakeAnswer = 'vigente' | 'cancelado' | 'no-encontrado' | 'http-500' | 'hang' | 'malformed' | 'no-result' | 'huge';

export interface FakeSat {
  url: string;
  /** The expressions received, unescaped, in order. */
  readonly expressions: string[];
  /** How this UUID (uppercase) is answered; unknown UUIDs get 'no-encontrado', as in real SAT. */
  answer(uuid: string, how: FakeAnswer): void;
  stop(): Promise<void>;
}

const unescapeXml = (s: string) =>
  s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((ok, ko) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => ok(Buffer.concat(chunks).toString('utf8')));
    req.on('error', ko);
  });
}

function send(res: ServerResponse, status: number, body: string) {
  res.writeHead(status, { 'content-type': 'text/xml; charset=utf-8' }).end(body);
}

export async function startFakeSat(): Promise<FakeSat> {
  const answers = new Map<string, FakeAnswer>();
  const expressions: string[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      // What SAT's WCF binding requires; anything else gets the 400/415 a wrong client would get.
      if (req.method !== 'POST' || req.url !== '/ConsultaCFDIService.svc') return send(res, 404, '');
      if (!/^text\/xml;\s*charset=utf-8$/i.test(req.headers['content-type'] ?? '')) return send(res, 415, '');
      if (req.headers.soapaction !== '"http://tempuri.org/IConsultaCFDIService/Consulta"') return send(res, 400, '');
      const m = /<c:Consulta xmlns:c="http:\/\/tempuri\.org\/"><c:expresionImpresa>([^<]*)<\/c:expresionImpresa><\/c:Consulta>/.exec(body);
      if (!body.includes('xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"') || !m) return send(res, 400, '');
      const expression = unescapeXml(m[1]!);
      expressions.push(expression);
      const uuid = (/[?&]id=([^&]+)/.exec(expression)?.[1] ?? '').toUpperCase();
      switch (answers.get(uuid) ?? 'no-encontrado') {
        case 'vigente':
          return send(res, 200, VIGENTE_RESPONSE);
        case 'cancelado':
          return send(res, 200, CANCELADO_RESPONSE);
        case 'no-encontrado':
          return send(res, 200, NO_ENCONTRADO_RESPONSE);
        case 'http-500':
          return send(res, 500, FAULT_500);
        case 'hang':
          hanging.add(res);
          return;
        case 'malformed':
          return send(res, 200, VIGENTE_RESPONSE.slice(0, VIGENTE_RESPONSE.length / 2));
        case 'no-result':
          return send(res, 200, '<html><body>Servicio en mantenimiento</body></html>');
        case 'huge':
          return send(res, 200, VIGENTE_RESPONSE.replace('<s:Body>', `<s:Body><!--${'x'.repeat(200_000)}-->`));
      }
    })();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/ConsultaCFDIService.svc`,
    expressions,
    answer: (uuid, how) => answers.set(uuid.toUpperCase(), how),
    stop: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
