import type { Command } from 'commander';
import { output, withServices } from '../cli-support';
import type { User } from '../entities/user.entity';
import { renderUser, userView } from '../presenters/user.presenter';

const describe = (user: User) => `${user.email} (id ${user.id}${user.isStaff ? ', staff' : ''})`;

/** `user list|promote|demote|reset-password`: the account chores an operator has without a staff session. */
export function registerUserCommands(user: Command): void {
  user
    .command('list')
    .description('list every account')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const users = await withServices((s) => s.users.list());
      output(!!opts.json, { users: users.map((u) => renderUser(userView(u))) }, users.length ? users.map(describe).join('\n') : 'no users');
    });

  for (const [name, isStaff] of [
    ['promote', true],
    ['demote', false],
  ] as const) {
    user
      .command(name)
      .description(isStaff ? 'make a user staff (admin pages, every job)' : 'take staff rights away from a user')
      .requiredOption('--email <email>')
      .option('--json', 'print one JSON object')
      .action(async (opts: { email: string; json?: boolean }) => {
        const changed = await withServices((s) => s.users.setStaff(opts.email, isStaff));
        output(!!opts.json, { user: renderUser(userView(changed)) }, `${name}d ${describe(changed)}`);
      });
  }

  user
    .command('reset-password')
    .description("set a user's password and end their sessions")
    .requiredOption('--email <email>')
    .requiredOption('--password <password>', 'at least 8 characters')
    .option('--json', 'print one JSON object')
    .action(async (opts: { email: string; password: string; json?: boolean }) => {
      const changed = await withServices((s) => s.users.resetPassword(opts.email, opts.password));
      output(!!opts.json, { user: renderUser(userView(changed)) }, `password reset for ${describe(changed)}; their sessions ended`);
    });
}
