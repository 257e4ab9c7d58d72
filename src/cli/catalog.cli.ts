import path from 'node:path';
import type { Command } from 'commander';
import { output, withServices } from '../cli-support';
import { renderImport, renderLifecycle } from '../presenters/catalog.presenter';
import { renderContextualInstall } from '../presenters/contextual.presenter';

/** `catalog import|publish|retire|contextual install`: seeding the library from real packages and with the
 * contextual components, and the publish/retire lifecycle. */
export function registerCatalogCommands(program: Command): void {
  const catalog = program.command('catalog').description('manage the component catalog');

  catalog
    .command('import')
    .description('register the components, clusters and model of an SDC4 package (ZIP or directory) as published library entries')
    .argument('<package>', 'package ZIP or directory')
    .option('--json', 'print one JSON object')
    .action(async (pkg: string, opts: { json?: boolean }) => {
      const result = await withServices((s) => s.packages.importPackage(path.resolve(pkg)));
      const created = result.components.created.length + result.clusters.created.length;
      const existing = result.components.existing.length + result.clusters.existing.length;
      output(
        !!opts.json,
        { import: renderImport(result) },
        `imported dm-${result.dmCtId} "${result.title}": ${created} entries created, ${existing} already registered`,
      );
    });

  catalog
    .command('publish')
    .description('publish a draft component, a cluster with its drafts, or a data model with its whole tree')
    .argument('<ct_id>')
    .option('--json', 'print one JSON object')
    .action(async (ctId: string, opts: { json?: boolean }) => {
      const result = await withServices((s) => s.catalog.publish(ctId));
      output(!!opts.json, renderLifecycle(result), `published ${result.kind} ${result.ctId}`);
    });

  catalog
    .command('retire')
    .description('retire a published component or cluster')
    .argument('<ct_id>')
    .option('--successor <ct_id>', 'the published entry that replaces it')
    .option('--json', 'print one JSON object')
    .action(async (ctId: string, opts: { successor?: string; json?: boolean }) => {
      const result = await withServices((s) => s.catalog.retire(ctId, opts.successor ?? null));
      output(
        !!opts.json,
        renderLifecycle(result),
        `retired ${result.kind} ${result.ctId}${result.successorCtId ? ` (successor ${result.successorCtId})` : ''}`,
      );
    });

  catalog
    .command('contextual')
    .description('the contextual library: one published component per contextual slot of a data model')
    .command('install')
    .description('create the contextual components that are missing (migration 0011 ships them; running it again changes nothing)')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const result = await withServices((s) => s.contextual.install());
      output(
        !!opts.json,
        { contextual: renderContextualInstall(result) },
        `contextual library: ${result.created.length} components created, ${result.existing.length} already there`,
      );
    });
}
