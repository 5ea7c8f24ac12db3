// The one error type screens see from the API: a Spanish message ready to show, plus the status.
export class ApiError extends Error {
  /** 0 when the request never reached the server (offline, DNS, timeout). */
  readonly status: number;
  readonly offline: boolean;

  constructor(message: string, status: number, offline = false) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.offline = offline;
  }
}
