/** The contextual library as the CLI and the transports show it. */

export interface ContextualInstallView {
  created: string[];
  existing: string[];
}

export const renderContextualInstall = (view: ContextualInstallView) => ({ created: view.created, existing: view.existing });
