// Spanish texts of our own (the spec's verbatim texts live in src/domain/messages.ts).
export const TXT = {
  offline: 'Sin conexión — revisa tu internet e intenta de nuevo.',
  offlineBanner: 'Sin conexión — lo que ves está guardado en este dispositivo. Lo actualizaremos al reconectar.',
  retry: 'Reintentar',
  loading: 'Cargando…',
  close: 'Cerrar',
  copyright: (year: number, version: string) => `© ${year} Cuentas Claras · v${version}`,
} as const;
