import type { MetadataDocument, MetadataQueryResult } from '../models';
import type { CallOptions } from '../options';
import { apiPath } from '../url';
import { bodyOf, type Send } from './send';

/** Per-team metadata documents and containment queries over them. */
export function metadataOperations(send: Send) {
  const document = (teamId: string, namespace: string) =>
    apiPath('/teams/{teamId}/metadata/{namespace}', { teamId, namespace });

  return {
    /** Reads a team's metadata in a namespace; `{}` when it has none (`GET /teams/{teamId}/metadata/{namespace}`). */
    async getTeamNamespaceMetadata(
      teamId: string,
      namespace: string,
      options?: CallOptions,
    ): Promise<MetadataDocument> {
      const path = document(teamId, namespace);
      return bodyOf(send, { operationId: 'getTeamNamespaceMetadata', method: 'GET', path }, options);
    },

    /** Replaces a team's metadata in a namespace (`PUT …`); resolves to the stored document. */
    async setTeamNamespaceMetadata(
      teamId: string,
      namespace: string,
      body: MetadataDocument,
      options?: CallOptions,
    ): Promise<MetadataDocument> {
      const path = document(teamId, namespace);
      return bodyOf(send, { operationId: 'setTeamNamespaceMetadata', method: 'PUT', path, body }, options);
    },

    /**
     * Deep-merges into a team's metadata in a namespace (`PATCH …`); resolves to the merged
     * document. Retried like a PUT: merging the same object twice gives the same document.
     */
    async updateTeamNamespaceMetadata(
      teamId: string,
      namespace: string,
      body: MetadataDocument,
      options?: CallOptions,
    ): Promise<MetadataDocument> {
      const operationId = 'updateTeamNamespaceMetadata';
      const path = document(teamId, namespace);
      return bodyOf(send, { operationId, method: 'PATCH', path, body, idempotent: true }, options);
    },

    /** Finds the teams whose metadata contains `query` (`POST /metadata/{namespace}/query`); a read, so retried. */
    async queryMetadata(
      namespace: string,
      query: MetadataDocument,
      options?: CallOptions,
    ): Promise<MetadataQueryResult[]> {
      const path = apiPath('/metadata/{namespace}/query', { namespace });
      return bodyOf(
        send,
        { operationId: 'queryMetadata', method: 'POST', path, body: query, idempotent: true },
        options,
      );
    },
  };
}

/** The metadata operations of the client. */
export type MetadataOperations = ReturnType<typeof metadataOperations>;
