/**
 * A multi-step form: who you are, then where you work, then a final confirmation. Each step's
 * answers are kept in the handler's sealed state; a decline or cancel at any step ends the wizard.
 * A client that declared the Tasks extension gets it as a task, each step answered with
 * `tasks/update` (each step's key is its own, as a task's keys must be).
 */
import { defineTool, inputRequired, inputResponse } from '@durable-mcp/handlers';

interface WizardState {
  step: 'profile' | 'team' | 'confirm';
  profile?: { name: string; email: string };
  team?: { team: string; role: string };
}

const STEPS = {
  profile: {
    message: 'Step 1 of 3: who are you?',
    requestedSchema: {
      type: 'object' as const,
      properties: {
        name: { type: 'string' as const, minLength: 1 },
        email: { type: 'string' as const, format: 'email' as const },
      },
      required: ['name', 'email'],
    },
  },
  team: {
    message: 'Step 2 of 3: where will you work?',
    requestedSchema: {
      type: 'object' as const,
      properties: {
        team: { type: 'string' as const, enum: ['platform', 'payments', 'growth'] },
        role: { type: 'string' as const, minLength: 1 },
      },
      required: ['team', 'role'],
    },
  },
};

export const onboardingWizard = defineTool({
  tool: {
    name: 'onboarding_wizard',
    title: 'Onboard a new team member',
    description: 'A three-step form: profile, team, confirmation.',
    inputSchema: { type: 'object', properties: {} },
  },
  // A form a new hire may fill over a day: a client that takes tasks gets one, answered step by
  // step with tasks/update, one ask after another.
  taskSupport: 'optional',
  run(_args, ctx) {
    const state: WizardState = ctx.requestState ? (JSON.parse(ctx.requestState) as WizardState) : { step: 'profile' };
    const answer = inputResponse(ctx.inputResponses, state.step);
    if (answer.kind === 'elicit' && answer.action !== 'accept') {
      return { content: [{ type: 'text', text: `Onboarding stopped at the ${state.step} step.` }] };
    }
    const content = answer.kind === 'elicit' ? (answer.content ?? {}) : undefined;
    if (content && state.step === 'profile' && typeof content.name === 'string' && typeof content.email === 'string') {
      state.profile = { name: content.name, email: content.email };
      state.step = 'team';
    } else if (
      content &&
      state.step === 'team' &&
      typeof content.team === 'string' &&
      typeof content.role === 'string'
    ) {
      state.team = { team: content.team, role: content.role };
      state.step = 'confirm';
    } else if (content && state.step === 'confirm' && content.confirm === true) {
      const { profile, team } = state;
      return {
        content: [{ type: 'text', text: `Welcome aboard, ${profile!.name} (${team!.role}, ${team!.team}).` }],
        structuredContent: { ...profile, ...team },
      };
    } else if (content && state.step === 'confirm') {
      return { content: [{ type: 'text', text: 'Onboarding not confirmed; nothing was saved.' }] };
    }

    const step =
      state.step === 'confirm'
        ? {
            message: `Step 3 of 3: create an account for ${state.profile!.name} <${state.profile!.email}> as ${state.team!.role} in ${state.team!.team}?`,
            requestedSchema: {
              type: 'object' as const,
              properties: { confirm: { type: 'boolean' as const } },
              required: ['confirm'],
            },
          }
        : STEPS[state.step];
    return inputRequired({
      inputRequests: { [state.step]: inputRequired.elicit(step) },
      requestState: JSON.stringify(state),
    });
  },
});
