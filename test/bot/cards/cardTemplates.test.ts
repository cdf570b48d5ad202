import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { CardVerb } from '../../../src/bot/cards/cardVerbs';
import { renderApprovalCard } from '../../../src/bot/approvals/approvalCard';
import { renderErrorCard } from '../../../src/bot/cards/errorCard';
import { renderHelpCard } from '../../../src/bot/shared/helpCard';
import { renderRequestFormCard } from '../../../src/bot/requests/requestFormCard';
import cardSchema from './adaptiveCard-1.5-subset.schema.json';
import { cardJson, expectValidCard, findAll } from './cardAssertions';
import { cardTemplateFiles } from './cardFiles';
import { APPROVERS, clientTemplate } from './sampleData';

describe('card templates', () => {
  const files = cardTemplateFiles();

  it('has one typed renderer beside each template, and every template is an Adaptive Card 1.5', () => {
    expect(files.length).toBe(24);
    for (const file of files) {
      const template = JSON.parse(readFileSync(file, 'utf8'));
      expect({ file, type: template.type, version: template.version }).toEqual({
        file,
        type: 'AdaptiveCard',
        version: '1.5',
      });
      expect(readdirSync(path.dirname(file))).toContain(path.basename(file).replace(/\.json$/, '.ts'));
    }
  });

  it('sends only the verbs the bot knows', () => {
    const known: string[] = Object.values(CardVerb);
    for (const file of files) {
      const template = JSON.parse(readFileSync(file, 'utf8'));
      for (const action of findAll(template, 'Action.Execute')) expect(known).toContain(action.verb);
    }
  });
});

describe('user text in cards', () => {
  const attack = '${$root.secret} ${requester.name} ${approvalId}';

  it('is shown literally: template expressions in data are never evaluated', () => {
    const approval = renderApprovalCard({
      approvalId: 'approval-42',
      teamName: attack,
      template: { name: attack, pictureUrl: null },
      requester: { name: 'Alex Wilber', mail: null },
      approvers: APPROVERS.map(({ name, teamsUserId }) => ({ name, teamsUserId })),
      description: attack,
      requestedAt: '2026-05-04T09:30:00Z',
      privacy: 'private',
      owners: [attack],
      members: [],
    });
    expectValidCard(approval, { allowExpressionText: true });
    const texts = findAll(approval.content, 'TextBlock').map((block) => block.text);
    expect(texts).toContain(attack);
    expect(texts).toContain(`Alex Wilber asks for a new team **${attack}**.`);

    const form = renderRequestFormCard({
      template: clientTemplate,
      values: { name: attack },
      finalNamePreview: attack,
      nameMaxLength: 257,
      ownersNeeded: 1,
      membersNeeded: 0,
      sensitivityLabel: null,
      people: [],
      problems: [attack],
    });
    expectValidCard(form, { allowExpressionText: true });
    expect(findAll(form.content, 'Input.Text').find((i) => i.id === 'name')?.value).toBe(attack);
    expect(cardJson(renderHelpCard({ notUnderstood: attack }))).toContain(attack);
    expect(cardJson(renderErrorCard({ message: attack, requestId: null }))).toContain(attack);
  });
});

describe('the bundled Adaptive Card schema subset', () => {
  const ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  const validate = ajv.compile(cardSchema);
  const card = (body: unknown[], extra: object = {}) => ({
    type: 'AdaptiveCard',
    version: '1.5',
    body,
    ...extra,
  });

  it('accepts a well-formed card', () => {
    expect(validate(card([{ type: 'TextBlock', text: 'Hello', wrap: true }]))).toBe(true);
  });

  it.each([
    ['an unknown element type', card([{ type: 'TextBlok', text: 'x' }])],
    ['a misspelt property', card([{ type: 'TextBlock', text: 'x', wrapp: true }])],
    ['a TextBlock without text', card([{ type: 'TextBlock' }])],
    ['a bad colour', card([{ type: 'TextBlock', text: 'x', color: 'red' }])],
    ['an input without id', card([{ type: 'Input.Text' }])],
    ['an Action.Execute without verb', card([], { actions: [{ type: 'Action.Execute', title: 'Go' }] })],
    [
      'an OpenUrl to a script',
      card([], { actions: [{ type: 'Action.OpenUrl', url: 'javascript:alert(1)' }] }),
    ],
    ['a version beyond 1.5', { type: 'AdaptiveCard', version: '1.6', body: [] }],
    [
      'a refresh for over 60 users',
      card([], { refresh: { action: { type: 'Action.Execute', verb: 'r' }, userIds: Array(61).fill('u') } }),
    ],
  ])('rejects %s', (_, invalid) => {
    expect(validate(invalid)).toBe(false);
  });
});
