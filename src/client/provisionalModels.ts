/**
 * PROVISIONAL: minimal types for the operations whose wire models are not in `src/domain/wire`
 * yet (reports, webhook subscriptions and deliveries), written from the API contract. When those
 * models land, replace each type here with the matching `Out<typeof wire.X>` / `In<…>` alias in
 * `models.ts` and delete this file.
 */
import type { ODataCollection } from '../domain/wire';

/** A report (contract model Report). */
export interface Report {
  id: string;
  type: 'dashboard' | 'question';
  title: string;
  description: string | null;
  logo: string | null;
  parameters: string[];
  category_id: string | null;
}

/** A category of reports (contract model ReportsCategory). */
export interface ReportsCategory {
  id: string;
  title: string;
  description: string | null;
}

/** Where a report can be seen (contract model ReportUrl). */
export interface ReportUrl {
  url: string;
}

/** Where and how a webhook delivers (contract model Hook_config). */
export interface HookConfig {
  verb?: 'post';
  url: string;
  content_type?: 'json';
  /** Sent on create; answers may leave it out or mask it. */
  secret?: string;
}

/** A webhook subscription as the server returns it (contract model Hook). */
export interface Hook {
  id: string;
  name: string;
  description?: string | null;
  active: boolean;
  events: string[];
  config: HookConfig;
}

/** A webhook subscription to create (contract model HookPayload: a Hook without its id). */
export interface HookPayload {
  name: string;
  description?: string;
  active?: boolean;
  events: string[];
  config: HookConfig;
}

/** The webhooks of the tenant (extension `listHooks`). */
export type Hooks = ODataCollection<Hook>;

/** One delivery of an event to a webhook (extension `getHookDeliveries`). */
export interface HookDelivery {
  id: string;
  event: string;
  status: string;
  [field: string]: unknown;
}

/** A webhook's deliveries (extension `getHookDeliveries`). */
export type HookDeliveries = ODataCollection<HookDelivery>;
