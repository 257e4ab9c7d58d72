import { ApiKey } from './api-key.entity';
import { LedgerEntry } from './ledger-entry.entity';
import { Session } from './session.entity';
import { User } from './user.entity';
import { Wallet } from './wallet.entity';

export const ENTITIES = [User, Session, ApiKey, Wallet, LedgerEntry];
