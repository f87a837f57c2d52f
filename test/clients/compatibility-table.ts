/**
 * docs/protocol.md's "Clients, tested" table, rendered from compatibility.ts: one row per client,
 * one column per scenario, then what each scenario is and what the tests shorten. `npm run
 * docs:clients` writes it between the markers; compatibility-table.unit.test.ts fails when the
 * file and the data part.
 */
import { CLIENTS, EXPECTED, SCENARIOS, STAND_INS, type ClientId, type ScenarioId } from './compatibility';

export const TABLE_START =
  '<!-- generated from test/clients/compatibility.ts by `npm run docs:clients`: change a cell there (the test that observes it asserts it), not here -->';
export const TABLE_END = '<!-- end of the generated client table -->';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const seconds = (ms: number) => `${ms / 1000} s`;

export function renderCompatibilityTable(): string {
  const scenarios = Object.keys(SCENARIOS) as ScenarioId[];
  const clients = Object.keys(CLIENTS) as ClientId[];
  const header = `| Client | Calls at | ${scenarios.map((s) => SCENARIOS[s].title).join(' | ')} |`;
  const rule = `|${'---|'.repeat(scenarios.length + 2)}`;
  const rows = clients.map(
    (c) =>
      `| ${cell(CLIENTS[c].label)} | ${CLIENTS[c].era} | ${scenarios.map((s) => cell(EXPECTED[c][s])).join(' | ')} |`,
  );
  const what = scenarios.map((s) => `- **${SCENARIOS[s].title}**: ${SCENARIOS[s].what}.`);
  const standIns = [
    `- \`HTTP_WAIT_MS\` and \`QUESTION_HOLD_MS\` are ${STAND_INS.holdMs} ms, for 25 s and 50 s.`,
    `- The TypeScript clients' request timeout is ${seconds(STAND_INS.clientTimeoutMs)}, for their default 60 s. The Python clients have no request timeout by default, and none is set.`,
    `- \`PENDING_RESULT_AT_LEG\` is ${STAND_INS.atLeg}, for 10, and the clients' own retry caps (\`inputRequired.maxRounds\`, \`input_required_max_rounds\`) are ${STAND_INS.atLeg} too, for their default 10.`,
    `- "Past 60 s": the approver answers ${seconds(STAND_INS.past60sMs)} after the question is asked. "Past 15 min": once the call has ended, or after ${seconds(STAND_INS.past15minMs)}.`,
  ];
  return [
    header,
    rule,
    ...rows,
    '',
    'What each column runs:',
    '',
    ...what,
    '',
    'What stands for what:',
    '',
    ...standIns,
  ].join('\n');
}

/** `markdown` with the text between the markers replaced by the table (the markers must be there). */
export function withCompatibilityTable(markdown: string): string {
  const start = markdown.indexOf(TABLE_START);
  const end = markdown.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error('docs/protocol.md lacks the client table markers');
  return `${markdown.slice(0, start + TABLE_START.length)}\n\n${renderCompatibilityTable()}\n\n${markdown.slice(end)}`;
}
