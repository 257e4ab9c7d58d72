import type { DataSource } from 'typeorm';
import { newId } from '../lib/ids';
import { defaultProjectOf, insertDefaultProject, listedProjects } from '../db/queries/projects.sql';
import { query, queryOne } from '../db/sql';
import { User } from '../entities/user.entity';
import { notFound } from '../lib/errors';
import type { PageRequest } from '../parsers/catalog.parser';
import type { PageView } from '../presenters/catalog.presenter';
import { modelerView, projectView, type ModelerView, type ProjectListView } from '../presenters/projects.presenter';

/** Projects as the studio's clients see them: the caller's default project (the modeler) and the list they file
 * into or read from (the library and their own). */
export class ProjectsService {
  constructor(private readonly db: DataSource) {}

  /** The caller and their default project; a user created before it existed gets it now. */
  async modeler(userId: number): Promise<ModelerView> {
    const user = await this.db.manager.findOneBy(User, { id: userId });
    if (!user) throw notFound('User');
    const project =
      (await queryOne(this.db, defaultProjectOf(userId))) ??
      (await queryOne(this.db, insertDefaultProject(newId(), userId, user.email))) ??
      (await queryOne(this.db, defaultProjectOf(userId)));
    if (!project) throw new Error(`User ${userId} has no default project and none could be created`);
    return modelerView(user, projectView(project));
  }

  async list(userId: number, page: PageRequest): Promise<PageView<ProjectListView>> {
    const statements = listedProjects(userId, page.pageSize, (page.page - 1) * page.pageSize);
    const [total, found] = await Promise.all([queryOne(this.db, statements.count), query(this.db, statements.page)]);
    return { count: total!.n, page: page.page, pageSize: page.pageSize, results: found.map(projectView) };
  }
}
