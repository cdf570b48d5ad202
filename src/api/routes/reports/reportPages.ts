import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type restify from 'restify';
import { NotFound, Unauthorized } from '../../../domain/errors';
import { REPORT_PAGE_HEADERS, renderReportErrorPage, renderReportPage } from './page';
import type { ReportService } from '../../../services/reports/reports';
import { toApiError } from '../../errors';

/**
 * Mounts the report pages, `GET /reports/{type}/{id}?token=…`, outside `/api/v1.0`: a browser (or a
 * Teams tab) opens them with no bearer token, so the signed URL is the only credential. Answers are
 * HTML: the report, or a page saying why not (401 invalid or expired link, 404 report gone).
 */
export function mountReportPages(server: restify.Server, reports: ReportService, logger: Logger): void {
  server.get('/reports/:type/:id', async (req: restify.Request, res: restify.Response) => {
    const requestId = randomUUID();
    const send = (status: number, html: string) => {
      res.writeHead(status, { ...REPORT_PAGE_HEADERS, 'request-id': requestId });
      res.end(html);
    };
    try {
      const token = new URL(req.url ?? '/', 'http://localhost').searchParams.get('token') ?? undefined;
      const page = await reports.page(String(req.params.type), String(req.params.id), token);
      send(
        200,
        renderReportPage(page.report, page.view, {
          tenantId: page.grant.tenantId,
          params: page.grant.params,
          generatedAt: page.generatedAt,
          expiresAt: new Date(page.grant.exp * 1000),
        }),
      );
    } catch (error) {
      if (error instanceof Unauthorized)
        return send(401, renderReportErrorPage('Link not valid', error.message));
      if (error instanceof NotFound)
        return send(404, renderReportErrorPage('Report not found', error.message));
      const { status } = toApiError(error, { requestId });
      logger.error({ err: error, requestId }, 'report page failed');
      send(
        status,
        renderReportErrorPage(
          'Report unavailable',
          `The report could not be computed just now. Try again; quote request id ${requestId} if it persists.`,
        ),
      );
    }
  });
}
