import type { Static } from '../lib/json-schema';
import type { modelerSchema, projectSchema } from './projects.schema';
import type { ProjectRow } from '../db/queries/projects.sql';
import type { User } from '../entities/user.entity';

/** Projects and the modeler, as views and as the studio's `/dmgen/projects/` and `/auth/modeler/` bodies. */

/** projectSchema's body in camelCase. */
export interface ProjectListView {
  ctId: string;
  name: string;
  ownerEmail: string | null;
  isPublic: boolean;
  isDefaultLibrary: boolean;
}

export interface ModelerView {
  name: string;
  email: string;
  project: ProjectListView;
}

export function projectView(row: ProjectRow): ProjectListView {
  return { ctId: row.ct_id, name: row.name, ownerEmail: row.owner_email, isPublic: row.is_public, isDefaultLibrary: row.is_library };
}

export const modelerView = (user: User, project: ProjectListView): ModelerView => ({ name: user.name, email: user.email, project });

export function renderProject(project: ProjectListView): Static<typeof projectSchema> {
  return {
    ct_id: project.ctId,
    name: project.name,
    owner_email: project.ownerEmail,
    is_public: project.isPublic,
    is_default_library: project.isDefaultLibrary,
  };
}

export function renderModeler(modeler: ModelerView): Static<typeof modelerSchema> {
  return {
    name: modeler.name,
    email: modeler.email,
    project_ct_id: modeler.project.ctId,
    project_name: modeler.project.name,
    project_is_public: modeler.project.isPublic,
  };
}
