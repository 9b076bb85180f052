import { EntityManager } from 'typeorm';

/** A DataSource or a transaction's EntityManager: repositories run the same SQL on either. */
export type Queryable = Pick<EntityManager, 'query'>;
