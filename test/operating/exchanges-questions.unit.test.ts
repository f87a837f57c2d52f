// Pins the questions table `npm run exchanges show` prints: every attempt at a question addressed
// to someone else, with who made it, when, through what, and what came of it.
import { table } from '../../cli/exchanges/exchange-tables';
import { questionLines, type QuestionRow } from '../../cli/exchanges/question-table';

const APPROVAL: QuestionRow = {
  key: 'approval',
  round: 1,
  status: 'answered',
  attempts: [
    {
      by: 'mallory',
      at: '2026-03-02T10:00:01.000Z',
      via: 'api',
      action: 'accept',
      taken: false,
      refusal: 'not-addressed',
    },
    { by: 'dana', at: '2026-03-02T10:00:05.000Z', via: 'page', action: 'accept', taken: true },
    {
      by: 'erin',
      at: '2026-03-02T10:00:09.000Z',
      via: 'api',
      action: 'decline',
      taken: false,
      refusal: 'already-answered',
    },
  ],
};

describe('the questions table of npm run exchanges show', () => {
  it('shows each attempt with who, when, via and its outcome, a refusal with its reason', () => {
    expect(questionLines([APPROVAL, { key: 'security', round: 2, status: 'waiting', attempts: [] }], table)).toEqual([
      '',
      'ROUND  QUESTION  STATUS    BY       VIA   AT                        ACTION   OUTCOME',
      '-----  --------  --------  -------  ----  ------------------------  -------  -------------------------',
      '1      approval  answered  mallory  api   2026-03-02T10:00:01.000Z  accept   refused: not-addressed',
      '1      approval  answered  dana     page  2026-03-02T10:00:05.000Z  accept   taken',
      '1      approval  answered  erin     api   2026-03-02T10:00:09.000Z  decline  refused: already-answered',
      '2      security  waiting   -        -     -                         -        no answer yet',
    ]);
  });

  it('marks an attempt with no action, and a refusal whose reason is unknown', () => {
    const lines = questionLines(
      [{ key: 'k', round: 3, status: 'closed', attempts: [{ by: 'bot', at: 'then', via: 'api', taken: false }] }],
      table,
    );
    expect(lines.at(-1)).toBe('3      k         closed  bot  api  then  -       refused: ?');
  });

  it("prints an answerer's display name and verified email beside its key, its controls as markers", () => {
    const lines = questionLines(
      [
        {
          key: 'k',
          round: 1,
          status: 'answered',
          attempts: [
            {
              by: 'https://id.example.com|client:refund-bot',
              name: 'Refund \u001b[2JBot',
              email: 'bot@example.com',
              at: 'then',
              via: 'api',
              action: 'accept',
              taken: true,
            },
          ],
        },
      ],
      table,
    );
    expect(lines.at(-1)).toContain(
      'https://id.example.com|client:refund-bot (“Refund ⟨U+001B⟩[2JBot”, bot@example.com)  api',
    );
    expect(lines.join('\n')).not.toContain('\u001b');
  });

  it('prints nothing for an exchange with no such question', () => {
    expect(questionLines(undefined, table)).toEqual([]);
    expect(questionLines([], table)).toEqual([]);
  });
});
