import type { Labels, Users } from '../models';
import type { CallOptions } from '../options';
import { apiPath } from '../url';
import { bodyOf, type Send } from './send';

/** Which people to list. */
export interface UsersQuery {
  /** Page size, 1–999 (server default 100). */
  top?: number;
  /** People to skip (`nextPage` follows `@odata.nextLink` for you). */
  skip?: number;
  /** Prefix of a display name, given name, surname, mail or UPN. */
  search?: string;
}

/** People and labels of the directory. */
export function directoryOperations(send: Send) {
  return {
    /** Lists or searches the people of the directory, for people pickers (`GET /users`). */
    async getUsers(query: UsersQuery = {}, options?: CallOptions): Promise<Users> {
      const path = apiPath('/users', {}, { $top: query.top, $skip: query.skip, $search: query.search });
      return bodyOf(send, { operationId: 'getUsers', method: 'GET', path }, options);
    },

    /** Lists the sensitivity labels the caller may apply (`GET /me/labels`). */
    async getMyLabels(options?: CallOptions): Promise<Labels> {
      return bodyOf(send, { operationId: 'getMyLabels', method: 'GET', path: '/me/labels' }, options);
    },
  };
}

/** The directory operations of the client. */
export type DirectoryOperations = ReturnType<typeof directoryOperations>;
