/**
 * A prompt that asks before it answers: the person picks the incident's severity, and the prompt's
 * messages are written for it. Shows that `prompts/get` is a durable exchange too.
 */
import { definePrompt, inputRequired, inputResponse } from '@durable-mcp/handlers';

const SEVERITIES = ['sev1', 'sev2', 'sev3'];

export const incidentBrief = definePrompt({
  prompt: {
    name: 'incident_brief',
    title: 'Incident brief',
    description: 'Drafts an incident brief for a service, after asking for the severity.',
    arguments: [{ name: 'service', description: 'The affected service', required: true }],
  },
  complete: { service: (value) => ['checkout', 'payments', 'search', 'identity'].filter((s) => s.startsWith(value)) },
  run(args, ctx) {
    const answer = inputResponse(ctx.inputResponses, 'severity');
    const severity = answer.kind === 'elicit' && answer.action === 'accept' ? answer.content?.severity : undefined;
    if (typeof severity !== 'string' || !SEVERITIES.includes(severity)) {
      if (answer.kind === 'elicit' && answer.action !== 'accept') {
        return {
          messages: [{ role: 'user', content: { type: 'text', text: `Draft an incident brief for ${args.service}.` } }],
        };
      }
      return inputRequired({
        inputRequests: {
          severity: inputRequired.elicit({
            message: `How severe is the ${args.service} incident?`,
            requestedSchema: {
              type: 'object',
              properties: { severity: { type: 'string', enum: SEVERITIES } },
              required: ['severity'],
            },
          }),
        },
      });
    }
    return {
      description: `${severity} incident brief for ${args.service}`,
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Draft a ${severity} incident brief for ${args.service}: impact, timeline, next update time.`,
          },
        },
      ],
    };
  },
});
