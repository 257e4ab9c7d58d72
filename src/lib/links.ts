/** Every absolute URL the service hands out, built from PUBLIC_BASE_URL in one place. */
export class Links {
  /** PUBLIC_BASE_URL is read on every call: a test server learns its URL only after the services are built. */
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

  /** A catalog endpoint (`components`, `dms`, the template `dm/{ct_id}`, …), unencoded. */
  catalog(path: string): string {
    return `${this.base}/api/v1/catalog/${path}/`;
  }

  /** The catalog's model list searched for one model. */
  modelSearch(dmCtId: string): string {
    return `${this.base}/api/v1/catalog/dms/?search=${encodeURIComponent(dmCtId)}`;
  }
}
