/** Every absolute URL the service hands out, built from PUBLIC_BASE_URL in one place. */
export class Links {
  // Read at each call: a server listening on port 0 learns its PUBLIC_BASE_URL after the services are built.
  constructor(private readonly settings: { readonly publicBaseUrl: string }) {}

  get base(): string {
    return this.settings.publicBaseUrl;
  }

  job(ctId: string): string {
    return `${this.base}/api/v1/jobs/${ctId}/`;
  }

  /** A model's catalog page, or one of its artefacts (`xsd`, `package`, `app`, …). */
  model(dmCtId: string, suffix = ''): string {
    return `${this.base}/api/v1/catalog/dm/${encodeURIComponent(dmCtId)}/${suffix ? `${suffix}/` : ''}`;
  }
}
