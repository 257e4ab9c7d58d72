#!/usr/bin/env node
import 'reflect-metadata';
import { Command } from 'commander';
import { registerAppKeyCommands } from './cli/app-key.cli';
import { registerCatalogCommands } from './cli/catalog.cli';
import { registerOntologyCommands } from './cli/ontology.cli';
import { registerSigningCommands } from './cli/signing.cli';
import { registerStorageCommands } from './cli/storage.cli';
import { registerVaasCommands } from './cli/vaas.cli';
import { registerUserCommands } from './cli/users.cli';
import { registerVslCommands } from './cli/vsl.cli';
import { output, withServices } from './cli-support';
import { loadSettings } from './config';
import { openDatabase } from './db/connect';
import { migrateDatabase } from './db/migrate';
import { DomainError } from './lib/errors';
import { createLogger } from './lib/logger';
import { renderUser, userView } from './presenters/user.presenter';
import { renderWallet, walletView } from './money';

export function buildCli(): Command {
  const program = new Command('sdc-gateway').description('sdc-gateway administration').exitOverride();

  program
    .command('migrate')
    .description('apply database migrations')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const settings = loadSettings();
      const logger = createLogger(process.env.LOG_LEVEL || 'warn');
      const database = await openDatabase(settings, logger);
      try {
        const applied = await migrateDatabase(database.url);
        output(!!opts.json, { applied }, applied.length ? `applied: ${applied.join(', ')}` : 'up to date');
      } finally {
        await database.stop();
      }
    });

  const user = program.command('user').description('manage users');
  user
    .command('create')
    .requiredOption('--email <email>')
    .requiredOption('--password <password>')
    .option('--name <name>')
    .option('--staff', 'make the user staff')
    .option('--json', 'print one JSON object')
    .action(async (opts: { email: string; password: string; name?: string; staff?: boolean; json?: boolean }) => {
      const created = await withServices((s) =>
        s.users.create({ email: opts.email, password: opts.password, name: opts.name, isStaff: !!opts.staff }),
      );
      output(
        !!opts.json,
        { user: renderUser(userView(created)) },
        `created user ${created.email} (id ${created.id}${created.isStaff ? ', staff' : ''})`,
      );
    });
  registerUserCommands(user);

  const wallet = program.command('wallet').description('manage wallets');
  wallet
    .command('credit')
    .requiredOption('--email <email>')
    .requiredOption('--credits <credits>', 'positive integer')
    .option('--reason <reason>', 'ledger reason', 'cli credit')
    .option('--json', 'print one JSON object')
    .action(async (opts: { email: string; credits: string; reason: string; json?: boolean }) => {
      const credits = Number(opts.credits);
      const result = await withServices(async (s) => {
        const target = await s.users.requireByEmail(opts.email);
        return s.ledger.credit(target.id, credits, opts.reason);
      });
      output(!!opts.json, { wallet: renderWallet(walletView(result)) }, `balance: ${result.balanceCredits} credits`);
    });

  registerCatalogCommands(program);
  registerAppKeyCommands(program);
  registerOntologyCommands(program);
  registerSigningCommands(program);
  registerVaasCommands(program);
  registerStorageCommands(program);
  registerVslCommands(program);

  return program;
}

async function run(argv: string[]): Promise<void> {
  const json = argv.includes('--json');
  try {
    await buildCli().parseAsync(argv);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version') return;
    const message = error instanceof DomainError ? error.message : (error as Error).message;
    const errorType = error instanceof DomainError ? error.code : (code ?? 'error');
    if (json) process.stdout.write(`${JSON.stringify({ error: message, error_type: errorType })}\n`);
    else if (!code?.startsWith('commander.')) process.stderr.write(`error: ${message}\n`);
    process.exitCode = 1;
  }
}

if (require.main === module) void run(process.argv);
