import {
  compileConvention,
  RULE_LIMITS,
  RuleEvaluationError,
  RuleSyntaxError,
} from '../../../src/domain/rules';

const scope = {
  request: {
    team: { name: 'Apollo Moon', description: 'Lunar project', welcomeMessage: null },
    template: { name: 'Project' },
    requester: { name: 'Ada Lovelace', email: 'ada@contoso.fr' },
  },
  user: { country: 'FR', department: 'Marketing' },
};

const render = (template: string, data: Record<string, unknown> = scope) =>
  compileConvention(template).render(data);

function syntaxError(template: string): RuleSyntaxError {
  try {
    compileConvention(template);
  } catch (error) {
    if (error instanceof RuleSyntaxError) return error;
    throw error;
  }
  throw new Error(`expected a RuleSyntaxError for ${template}`);
}

describe('compileConvention', () => {
  it('renders the governance.md example', () => {
    const convention = compileConvention('PRJ-<%= request.team.name %>');
    expect(convention.source).toBe('PRJ-<%= request.team.name %>');
    expect(convention.render(scope)).toBe('PRJ-Apollo Moon');
  });

  it('renders several holes with the literal text between them', () => {
    expect(render('<%= user.department %> - <%= request.team.name %> (<%= user.country %>)')).toBe(
      'Marketing - Apollo Moon (FR)',
    );
    expect(render('<%=request.requester.name%><%=request.requester.email%>')).toBe(
      'Ada Lovelaceada@contoso.fr',
    );
  });

  it('renders the seed conventions', () => {
    expect(render("prj-<%= request.team.name.toLowerCase().replace(/[^a-z0-9]+/g, '-') %>")).toBe(
      'prj-apollo-moon',
    );
    expect(render('<%= request.team.description %> (project led by <%= request.requester.name %>)')).toBe(
      'Lunar project (project led by Ada Lovelace)',
    );
  });

  it('returns literal-only templates unchanged', () => {
    expect(render('Just a name')).toBe('Just a name');
    expect(render('')).toBe('');
    expect(render('50 %> 40 <% not a hole %> <%')).toBe('50 %> 40 <% not a hole %> <%');
  });

  it('renders Date.now() as digits', () => {
    expect(render('ARCHIVE-<%= Date.now() %>')).toMatch(/^ARCHIVE-\d{13,}$/);
  });

  it('renders undefined and null as empty text, other values with String()', () => {
    expect(render('[<%= request.team.missing %>|<%= request.team.welcomeMessage %>]')).toBe('[|]');
    expect(render('<%= 1 + 1 %> <%= true %> <%= [1, 2] %>')).toBe('2 true 1,2');
    expect(render('<%= nobody.knows %>', {})).toBe('');
  });

  it('ignores "%>" inside a quoted string of a hole', () => {
    expect(render("<%= '50%>' %>!")).toBe('50%>!');
    expect(render('<%= "a%>b" + \'%>\' %>')).toBe('a%>b%>');
  });

  it('can be rendered many times against different scopes', () => {
    const convention = compileConvention('T-<%= request.team.name %>');
    const names = ['A', 'B', 'C'].map((name) => convention.render({ request: { team: { name } } }));
    expect(names).toEqual(['T-A', 'T-B', 'T-C']);
  });
});

describe('convention syntax errors', () => {
  it('reports an unterminated hole at its "<%="', () => {
    const error = syntaxError('PRJ-<%= request.team.name');
    expect(error.position).toBe(4);
    expect(error.message).toMatch(/Unterminated/);
    expect(syntaxError('<%= a %>-<%= b').position).toBe(9);
  });

  it('reports a syntax error inside the second hole relative to the whole template', () => {
    const template = "A-<%= user.country %>-<%= request.team.name === 'x %>";
    // jsep stops at the end of the hole's expression, where the quote is still open.
    expect(syntaxError(template).position).toBe(template.length - 2);
    const second = 'A-<%= user.country %>-<%= request.team.name === ) %>';
    expect(syntaxError(second).position).toBe(second.indexOf(')'));
  });

  it('reports allow-list refusals with their position in the template', () => {
    const template = 'X-<%= user.constructor %>';
    expect(syntaxError(template).position).toBe(template.indexOf('constructor'));
    expect(syntaxError('X-<%= %>').position).toBe(5);
  });

  it('limits the template and each hole', () => {
    expect(syntaxError('x'.repeat(RULE_LIMITS.maxStringLength + 1)).position).toBe(
      RULE_LIMITS.maxStringLength,
    );
    const hole = `P-<%= '${'y'.repeat(RULE_LIMITS.maxSourceLength)}' %>`;
    expect(syntaxError(hole).position).toBe(5 + RULE_LIMITS.maxSourceLength);
  });
});

describe('convention evaluation limits', () => {
  it('shares one step budget across all holes', () => {
    const big = Array.from({ length: 3_000 }, (_, i) => i);
    const hole = '<%= big.some(x => x < 0) %>';
    expect(render(hole, { big })).toBe('false');
    expect(() => render(hole.repeat(2), { big })).toThrow(RuleEvaluationError);
  });

  it('refuses rendered text longer than the string limit', () => {
    const half = 'h'.repeat(RULE_LIMITS.maxStringLength / 2 + 1);
    expect(() => render('<%= half %><%= half %>', { half })).toThrow(RuleEvaluationError);
  });

  it('refuses a value that cannot become text', () => {
    expect(() => render('<%= odd %>', { odd: Object.create(null) })).toThrow(RuleEvaluationError);
  });
});
