import { TeamLabelStatus } from '../../contract';
import type { SensitivityLabels } from '../../services/labels/sensitivityLabels';
import { defineRoute, type Route } from '../route';
import { TeamPath } from './lifecycle/lifecycle';

/** Putting a template's sensitivity label on a team that was made without it (an extension). */
export function sensitivityLabelRoutes(labels: SensitivityLabels): Route[] {
  return [
    defineRoute({
      operationId: 'applyTeamSensitivityLabel',
      method: 'post',
      path: '/teams/{teamId}/sensitivityLabel',
      tag: 'Teams',
      summary: "Apply the team's template sensitivity label as its owner",
      description:
        "Microsoft Graph applies a sensitivity label only on a person's behalf, so a team may have been made without its template's label. An owner applies it with their own sign-in, exchanged for a delegated token (the on-behalf-of flow with Entra ID) that is used at once and not kept. 200 when the label is on (already, or now).",
      params: TeamPath,
      responses: {
        200: { description: "The team's label.", schema: TeamLabelStatus },
        404: { description: 'The team was not made by Steward from a template with a sensitivity label.' },
        409: {
          description:
            "No delegated token can be had with the caller's sign-in (this deployment does not use Entra ID sign-in, or Entra ID refused), or the platform refused the label.",
        },
      },
      handle: async ({ caller, params, person }) => ({
        status: 200,
        body: await labels.applyByOwner(caller, params.teamId, person),
      }),
    }),
  ];
}
