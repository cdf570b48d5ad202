import type { StewardClient } from '../../client';
import type { BotLog } from '../botLog';
import type { RequestFormValues } from '../cards';
import type { Requester } from './submitRequest';
import { requestForm } from './requestTeam';
import type { Reply } from './reply';
import type { Reader } from '../i18n/catalog';

type Json = Record<string, unknown>;
const object = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const ids = (value: unknown): string[] =>
  (Array.isArray(value) ? value : []).map((item) => text(object(item).id) ?? '').filter((id) => id !== '');

/** "Try again" on a failed request: the form of its template, filled with the same answers. */
export async function retryForm(
  api: StewardClient,
  jobId: string,
  requester: Requester,
  reader: Reader,
  log: BotLog,
): Promise<Reply> {
  const job = await api.getJob(jobId);
  const data = object(job.data);
  const request = object(data.request);
  const team = object(request.team);
  const membership = object(team.membership);
  const templateId = text(object(request.template).id) ?? text(object(data.template).id) ?? '';
  const values: RequestFormValues = {
    name: text(team.name),
    description: text(team.description),
    welcomeMessage: text(team.welcomeMessage),
    owners: ids(membership.owners),
    members: ids(membership.members),
  };
  return requestForm(api, templateId, { values, requester, reader }, false, log);
}
