import { assemblyRoutes } from './assembly.routes';
import { authRoutes } from './auth.routes';
import { generationRoutes } from './generation.routes';
import { jobsRoutes } from './jobs.routes';
import { catalogRoutes } from './catalog.routes';
import { ontologyRoutes } from './ontology.routes';
import { signingRoutes } from './signing.routes';
import type { StudioRoute } from './route-table';

/** Every REST-compat route of Interface A (the authorization test enumerates this table). */
export const STUDIO_ROUTES: StudioRoute[] = [...authRoutes, ...assemblyRoutes, ...catalogRoutes, ...ontologyRoutes, ...jobsRoutes, ...generationRoutes, ...signingRoutes];
