/** Every absolute URL the service hands out, built from PUBLIC_BASE_URL in one place. */
export class Links {
  constructor(readonly base: string) {}

  job(ctId: string): string {
    return `${this.base}/api/v1/jobs/${ctId}/`;
  }

  /** A model's catalog page, or one of its artefacts (`xsd`, `package`, `app`, …). */
  model(dmCtId: string, suffix = ''): string {
    return `${this.base}/api/v1/catalog/dm/${encodeURIComponent(dmCtId)}/${suffix ? `${suffix}/` : ''}`;
  }

  /** The catalog's model list searched for one model. */
  modelSearch(dmCtId: string): string {
    return `${this.base}/api/v1/catalog/dms/?search=${encodeURIComponent(dmCtId)}`;
  }
}
