import { appApiRoutes } from './app-api/app-api.routes';
import { artefactsRoutes } from './studio/artefacts.routes';
import { assemblyRoutes } from './studio/assembly.routes';
import { authRoutes } from './studio/auth.routes';
import { generationRoutes } from './studio/generation.routes';
import { jobsRoutes } from './studio/jobs.routes';
import { catalogRoutes } from './studio/catalog.routes';
import { draftsRoutes } from './studio/drafts.routes';
import { ontologyRoutes } from './studio/ontology.routes';
import { projectsRoutes } from './studio/projects.routes';
import { signingRoutes } from './studio/signing.routes';
import { vaasRoutes } from './studio/vaas.routes';
import { dcatRoutes } from './studio/dcat.routes';
import { vslRoutes } from './studio/vsl.routes';
import type { AnyRoute, AppApiRoute, StudioRoute } from './route-table';

/** Every REST-compat route of Interface A. */
export const STUDIO_ROUTES: StudioRoute[] = [
  ...authRoutes,
  ...assemblyRoutes,
  ...catalogRoutes,
  ...projectsRoutes,
  ...artefactsRoutes,
  ...ontologyRoutes,
  ...jobsRoutes,
  ...generationRoutes,
  ...signingRoutes,
  ...draftsRoutes,
  ...vaasRoutes,
  ...dcatRoutes,
  ...vslRoutes,
];

/** Every route of Interface B (the generated application's API; ROLE=app serves these alone). */
export const APP_API_ROUTES: AppApiRoute[] = appApiRoutes;

/** The one route table of both interfaces (the authorization matrix enumerates it). */
export const ROUTES: AnyRoute[] = [...APP_API_ROUTES, ...STUDIO_ROUTES];
