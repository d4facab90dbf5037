import type { Sequelize } from 'sequelize';
import type { CursorCodec } from '@libs/cursor';

/** What every finance handler needs. */
export interface FinanceDeps {
  sequelize: Sequelize;
  cursors: CursorCodec;
  /** Called after a commit that wrote outbox rows, so the relay sends them at once. */
  afterCommit: () => void;
}
