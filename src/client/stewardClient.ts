import { HttpTransport } from './http';
import type { ODataCollection } from './models';
import { type AuditOperations, auditOperations } from './operations/audit';
import { type CatalogOperations, catalogOperations } from './operations/catalog';
import { type DirectoryOperations, directoryOperations } from './operations/directory';
import { type DriftOperations, driftOperations } from './operations/drift';
import { type HookOperations, hookOperations } from './operations/hooks';
import { type JoiningOperations, joiningOperations } from './operations/joining';
import { type LifecycleOperations, lifecycleOperations } from './operations/lifecycle';
import {
  type LifecycleResponseOperations,
  lifecycleResponseOperations,
} from './operations/lifecycleResponses';
import { type MetadataOperations, metadataOperations } from './operations/metadata';
import { type ProvisioningOperations, provisioningOperations } from './operations/provisioning';
import { type ReportOperations, reportOperations } from './operations/reports';
import type { Send } from './operations/send';
import { type TeamOperations, teamOperations } from './operations/teams';
import type { CallOptions, StewardClientOptions, TokenSource, Turn } from './options';
import { nextLinkPath } from './url';

/** One method per operationId of the API, named exactly as the operation. */
export type StewardOperations = ProvisioningOperations &
  TeamOperations &
  CatalogOperations &
  MetadataOperations &
  AuditOperations &
  ReportOperations &
  DirectoryOperations &
  HookOperations &
  LifecycleOperations &
  LifecycleResponseOperations &
  JoiningOperations &
  DriftOperations;

/** A page of any OData collection of the API. */
type Page = Pick<ODataCollection<unknown>, '@odata.nextLink'>;

/** The typed client of the Steward API: every operation, and helpers around them. */
export interface StewardClient extends StewardOperations {
  /** A view of this client that calls as `token` (sharing its connections and settings). */
  as(token: TokenSource): StewardClient;
  /**
   * A view of this client whose calls with its own token (`as(token)` views of it included) belong
   * to `turn`: they cost the person's rate-limit budget once (`TurnCharge`).
   */
  inTurn(turn: Turn): StewardClient;
  /** The page after `page` (following its `@odata.nextLink`), or `undefined` after the last. */
  nextPage<C extends Page>(page: C, options?: CallOptions): Promise<C | undefined>;
  /** Every item of `first` and of the pages after it, fetched one page at a time as you iterate. */
  followNextLinks<T>(first: ODataCollection<T>, options?: CallOptions): AsyncGenerator<T, void, undefined>;
  /** Closes the client's pooled connections; on a view from `as()`, does nothing. */
  close(): Promise<void>;
}

class Client {
  constructor(options: StewardClientOptions, transport?: HttpTransport, isView = false) {
    const shared = transport ?? new HttpTransport(options);
    // A call as someone else (its own `token`) is no part of the person's turn.
    const turnOf = (call: CallOptions) =>
      call.token === undefined && options.token !== undefined ? options.turn : undefined;
    const send: Send = (operation, call = {}) =>
      shared.send(operation, call.token ?? options.token, call, turnOf(call));
    const nextPage = async <C extends Page>(page: C, call?: CallOptions): Promise<C | undefined> => {
      const link = page['@odata.nextLink'];
      if (!link) return undefined;
      return (await send<C>({ operationId: 'nextPage', method: 'GET', path: nextLinkPath(link) }, call)).body;
    };
    const view: Omit<StewardClient, keyof StewardOperations> = {
      as: (token) => new Client({ ...options, token }, shared, true) as unknown as StewardClient,
      inTurn: (turn) => new Client({ ...options, turn }, shared, true) as unknown as StewardClient,
      nextPage,
      async *followNextLinks<T>(first: ODataCollection<T>, call?: CallOptions) {
        for (let page: ODataCollection<T> | undefined = first; page; page = await nextPage(page, call)) {
          yield* page.value;
        }
      },
      close: async () => (isView ? undefined : shared.close()),
    };
    Object.assign(
      this,
      provisioningOperations(send),
      teamOperations(send),
      catalogOperations(send),
      metadataOperations(send),
      auditOperations(send),
      reportOperations(send),
      directoryOperations(send),
      hookOperations(send),
      lifecycleOperations(send),
      lifecycleResponseOperations(send),
      joiningOperations(send),
      driftOperations(send),
      view,
    );
  }
}

/**
 * Makes a client of the Steward API at `options.baseUrl`.
 *
 * @example
 * const steward = new StewardClient({ baseUrl: 'https://steward.example.com', token: getAppToken });
 * const templates = await steward.as(userToken).getMyCatalogTemplates();
 * const job = await steward.createTeamProvisioningJob({ template: { id: 'project' }, team: { name: 'Apollo' } });
 */
export const StewardClient = Client as unknown as new (options: StewardClientOptions) => StewardClient;
