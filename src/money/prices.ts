/**
 * The price table, in credits (1,000 per dollar): one rule for every door that makes a component, cluster or model
 * exist for a user (assembly's estimate and both its paths, the drafts API, CSV uploads, publishing a draft tree).
 * Reuse and estimates are free. Application downloads and VaaS are priced by settings (APP_DOWNLOAD_CREDITS,
 * VAAS_VALIDATION_CREDITS, VAAS_SIGNATURE_CREDITS).
 */
export const PRICES = { model: 500, cluster: 100, component: 100, reuse: 0 } as const;

/** The doors that charge, as the REST route table and the GraphQL fields declare them (`charges:`): the edge asks
 * a key for `spend` on every one of them, once, through AuthService.authorize. */
export type ChargeDoor = 'assembly' | 'draft' | 'csv_upload' | 'app_download' | 'vaas' | 'settlement';
/** The authChecker's marker of a field that charges. */
export const CHARGES = 'charges';

/** A CSV upload mints a draft model with one new component per column: N × component + model. */
export const csvUploadPrice = (columns: number): number => columns * PRICES.component + PRICES.model;

/** What publishing a draft tree charges for its entries no door charged for: by the same table, the model with its
 * root cluster 500 (its root cluster 100 when the model itself was paid), every other cluster 100, every component
 * 100. `clusters` counts the root among them. */
export const unpaidTreePrice = (unpaid: { model: boolean; rootCluster: boolean; clusters: number; components: number }): number =>
  (unpaid.model ? PRICES.model : 0) +
  (unpaid.clusters - (unpaid.model && unpaid.rootCluster ? 1 : 0)) * PRICES.cluster +
  unpaid.components * PRICES.component;
