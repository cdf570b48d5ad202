import { SignJWT } from 'jose';
import type { ReportDefinition, ReportParameters } from '../../domain/reports/catalogue';

/** Metabase signed embedding, as configured by `METABASE_SITE_URL` and `METABASE_SECRET_KEY`. */
export interface MetabaseEmbedding {
  /** The Metabase site, without a trailing slash. */
  siteUrl: string;
  /** The embedding secret key (Admin → Embedding → Static embedding). Never logged or returned. */
  secretKey: string;
  /** Metabase resource ids by report id, overriding each report's `metabaseId`. */
  resourceIds: Readonly<Record<string, number>>;
}

/** The Metabase resource id a report maps to. */
export function metabaseResourceId(settings: MetabaseEmbedding, report: ReportDefinition): number {
  return settings.resourceIds[report.id] ?? report.metabaseId;
}

/**
 * A Metabase static-embedding URL for `report`: `{site}/embed/{type}/{jwt}#bordered=true&titled=true`,
 * the JWT signed HS256 with the embedding secret and carrying `resource`, `params` and `exp`.
 * `params` holds `tenant_id` and every parameter the report declares (`null` when not given), so
 * Metabase can lock them and the viewer cannot widen the report to other data.
 */
export async function metabaseEmbedUrl(
  settings: MetabaseEmbedding,
  report: ReportDefinition,
  context: { tenantId: string; params: ReportParameters; expiresAt: number },
): Promise<string> {
  const params: Record<string, string | null> = { tenant_id: context.tenantId };
  for (const name of report.parameters) params[name] = context.params[name] ?? null;
  const token = await new SignJWT({
    resource: { [report.type]: metabaseResourceId(settings, report) },
    params,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setExpirationTime(context.expiresAt)
    .sign(new TextEncoder().encode(settings.secretKey));
  return `${settings.siteUrl}/embed/${report.type}/${token}#bordered=true&titled=true`;
}
