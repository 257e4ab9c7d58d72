import type { ContextualComponent } from '../packages/contextual-slots';

/** The contextual library as the CLI and the transports show it. */

export interface ContextualInstallView {
  created: string[];
  existing: string[];
}

export const renderContextualInstall = (view: ContextualInstallView) => ({ created: view.created, existing: view.existing });

export const renderContextualLibrary = (library: ContextualComponent[]) =>
  library.map((c) => ({ slot: c.slot, ct_id: c.ctId, label: c.label, description: c.description, component_type: c.componentType }));
