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

  /** A published model's hosted schema, or the version named by its sha256. */
  dmlib(dmCtId: string, sha256?: string): string {
    return `${this.base}/dmlib/dm-${encodeURIComponent(dmCtId)}.xsd${sha256 ? `?version=${sha256}` : ''}`;
  }

  /** A stored VaaS package. */
  vaasPackage(id: string): string {
    return `${this.base}/api/v1/vaas/packages/${id}/`;
  }

  /** The JWK set of the signing keys. */
  signingKeys(): string {
    return `${this.base}/.well-known/sdcstudio-signing-keys.json`;
  }

  /** One signing key by its kid. */
  signingKey(kid: string): string {
    return `${this.base}/.well-known/sdc-signing-key?kid=${encodeURIComponent(kid)}`;
  }

  /** Any path of this service (with its query), as written in the request or a route table. */
  absolute(pathAndQuery: string): string {
    return `${this.base}${pathAndQuery}`;
  }
}
