// SAT's bulk-download web service (Descarga Masiva, docs cfdi-facts §7) as the SAT port, through
// @nodecfdi/sat-ws-descarga-masiva: authenticate with the e.firma (FIEL) → query a day's CFDI XMLs of
// one direction (SolicitaDescarga) → verify until SAT has the packages → download each package (a zip of
// XMLs, base64 in the SOAP answer). It only takes the e.firma: the CIEC does not open this service.
// Received XML requests must ask for EstadoComprobante Vigente (v1.5 rules), and a period's start must be
// strictly before its end. The web client is fetch-based so SAT_WS_URL can point at a local http server.
import type { CRequest } from '@nodecfdi/sat-ws-descarga-masiva';
import {
  CResponse,
  DateTimePeriod,
  DocumentStatus,
  DownloadType,
  Fiel,
  FielRequestBuilder,
  QueryParameters,
  RequestType,
  Service,
  ServiceEndpoints,
  WebClientException,
  type WebClientInterface,
} from '@nodecfdi/sat-ws-descarga-masiva';
import type { SatMethod } from '../../domain/sat-sync';
import type { Clock } from '../context';
import { SatPortalError, type SatCollect, type SatCredentials, type SatDirection, type SatFile, type SatPortal } from './port';

const TIMEOUT_MS = 60_000;

/** The library's web client over fetch (its own HttpsWebClient only speaks https). */
export class FetchWebClient implements WebClientInterface {
  fireRequest(): void {}
  fireResponse(): void {}
  async call(request: CRequest): Promise<CResponse> {
    try {
      const res = await fetch(request.getUri(), {
        method: request.getMethod(),
        headers: request.getHeaders(),
        body: request.getBody(),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      return new CResponse(res.status, await res.text(), Object.fromEntries(res.headers));
    } catch (err) {
      throw new WebClientException((err as Error).message, request, new CResponse(0, (err as Error).message, {}));
    }
  }
}

/** SAT's endpoints, or the same paths under `baseUrl` (a local fake in tests). */
export function descargaMasivaEndpoints(baseUrl?: string): ServiceEndpoints {
  const sat = ServiceEndpoints.cfdi();
  if (!baseUrl) return sat;
  const base = baseUrl.replace(/\/$/, '');
  return new ServiceEndpoints(
    `${base}/Autenticacion/Autenticacion.svc`,
    `${base}/SolicitaDescargaService.svc`,
    `${base}/VerificaSolicitudDescargaService.svc`,
    `${base}/DescargaMasivaService.svc`,
    sat.getServiceType(),
  );
}

/** The query of one Mexico City day's XMLs of one direction (received: only Vigente, as SAT requires). */
export function dayQuery(day: string, direction: SatDirection): QueryParameters {
  const query = QueryParameters.create(DateTimePeriod.createFromValues(`${day} 00:00:00`, `${day} 23:59:59`))
    .withDownloadType(new DownloadType(direction))
    .withRequestType(new RequestType('xml'));
  return direction === 'received' ? query.withDocumentStatus(new DocumentStatus('active')) : query;
}

export interface DescargaMasivaOptions {
  baseUrl?: string;
  clock: Clock;
  webClient?: WebClientInterface;
}

export class DescargaMasivaPortal implements SatPortal {
  readonly name = 'descarga-masiva';
  readonly methods: readonly SatMethod[] = ['efirma'];
  private readonly endpoints: ServiceEndpoints;
  private readonly web: WebClientInterface;

  constructor(private readonly options: DescargaMasivaOptions) {
    this.endpoints = descargaMasivaEndpoints(options.baseUrl);
    this.web = options.webClient ?? new FetchWebClient();
  }

  /** The CIEC does not open the web service. */
  async authenticate(): Promise<boolean> {
    return false;
  }

  private service(cred: SatCredentials): Service {
    if (cred.method !== 'efirma') throw new SatPortalError('Descarga Masiva requiere la e.firma');
    const binary = (b: Uint8Array) => Buffer.from(b).toString('binary');
    let fiel: Fiel;
    try {
      fiel = Fiel.create(binary(cred.cer), binary(cred.key), cred.password);
    } catch (err) {
      throw new SatPortalError(`e.firma ilegible: ${(err as Error).message}`);
    }
    return new Service(new FielRequestBuilder(fiel), this.web, null, this.endpoints);
  }

  async submit(cred: SatCredentials, day: string, direction: SatDirection): Promise<string> {
    const result = await this.guard(() => this.service(cred).query(dayQuery(day, direction)));
    if (!result.getStatus().isAccepted()) throw new SatPortalError(`SAT rechazó la solicitud: ${result.getStatus().getMessage()}`);
    return result.getRequestId();
  }

  async collect(cred: SatCredentials, requestId: string): Promise<SatCollect> {
    const service = this.service(cred);
    const verify = await this.guard(() => service.verify(requestId));
    if (!verify.getStatus().isAccepted()) throw new SatPortalError(`SAT no verificó la solicitud: ${verify.getStatus().getMessage()}`);
    const state = verify.getStatusRequest();
    if (state.isTypeOf('Accepted') || state.isTypeOf('InProgress')) return { state: 'pending' };
    if (!state.isTypeOf('Finished')) {
      // SAT answers "no information" (code 5004) as a rejected request: an empty day, not a failure.
      if (verify.getCodeRequest().isTypeOf('EmptyResult')) return { state: 'ready', files: [] };
      throw new SatPortalError(`solicitud ${state.getEntryId()}: ${verify.getCodeRequest().getEntryValueOnUndefined().message}`);
    }
    const files: SatFile[] = [];
    for (const packageId of verify.getPackageIds()) {
      const download = await this.guard(() => service.download(packageId));
      if (!download.getStatus().isAccepted()) throw new SatPortalError(`SAT no entregó el paquete ${packageId}: ${download.getStatus().getMessage()}`);
      files.push({ name: `${packageId}.zip`, kind: 'zip', bytes: Buffer.from(download.getPackageContent(), 'base64') });
    }
    return { state: 'ready', files };
  }

  private async guard<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof SatPortalError) throw err;
      throw new SatPortalError(`Descarga Masiva: ${(err as Error).message}`);
    }
  }
}
