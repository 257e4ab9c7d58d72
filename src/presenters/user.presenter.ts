import type { User } from '../entities/user.entity';

export function presentUser(user: User) {
  return { id: user.id, email: user.email, name: user.name, is_staff: user.isStaff };
}
