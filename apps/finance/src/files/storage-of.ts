import type { Sequelize } from 'sequelize';
import type { FinanceConfig } from '../config';
import type { FileStorage } from './file-storage';
import { PostgresStorage } from './postgres-storage';
import { S3Storage } from './s3-storage';

/** The storage FILE_STORAGE names. */
export const storageOf = (config: FinanceConfig, sequelize: Sequelize): FileStorage =>
  config.FILE_STORAGE === 's3' ? new S3Storage(config) : new PostgresStorage(sequelize);
