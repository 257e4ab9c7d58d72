import { sql } from '../sql';

/** Projects and the modeler: each user's default project, and the projects a caller lists. */

export interface ProjectRow {
  id: string;
  ct_id: string;
  name: string;
  owner_email: string | null;
  is_public: boolean;
  is_library: boolean;
}

const PROJECT_COLUMNS = `p.id, p.ct_id, p.name, u.email AS owner_email, p.is_public, p.is_library`;

/** A new user's default project, named after the email's local part and the user id (so always unique). */
export const insertDefaultProject = (ctId: string, userId: number, email: string) =>
  sql<ProjectRow>(
    `INSERT INTO projects (ct_id, name, owner_id, is_public, is_default) VALUES ($1, $2, $3, true, true)
     ON CONFLICT DO NOTHING RETURNING id, ct_id, name, $4::text AS owner_email, is_public, is_library`,
    [ctId, `${email.split('@')[0]}-${userId}`, userId, email],
  );

export const defaultProjectOf = (userId: number) =>
  sql<ProjectRow>(`SELECT ${PROJECT_COLUMNS} FROM projects p JOIN users u ON u.id = p.owner_id WHERE p.owner_id = $1 AND p.is_default`, [userId]);

export interface CountRow {
  n: number;
}

/** The library first, then the caller's own projects (default first), by name. */
const LISTED = `FROM projects p LEFT JOIN users u ON u.id = p.owner_id WHERE p.is_library OR p.owner_id = $1`;

export const listedProjects = (userId: number, pageSize: number, offset: number) => ({
  count: sql<CountRow>(`SELECT count(*)::int AS n ${LISTED}`, [userId]),
  page: sql<ProjectRow>(`SELECT ${PROJECT_COLUMNS} ${LISTED} ORDER BY p.is_library DESC, p.is_default DESC, p.name, p.id LIMIT $2 OFFSET $3`, [
    userId,
    pageSize,
    offset,
  ]),
});
